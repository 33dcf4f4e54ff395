package dev.planvm.dialects.internal;

import java.util.Arrays;

/** Line starts of a text, to turn offsets into line and column ({@code \n}, {@code \r\n} and {@code \r} end lines). */
final class LineTable implements Locator {

    private final int[] starts;
    private final int length;

    LineTable(String text) {
        int[] found = new int[16];
        int count = 0;
        found[count++] = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean end = c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'));
            if (end) {
                if (count == found.length) {
                    found = Arrays.copyOf(found, count * 2);
                }
                found[count++] = i + 1;
            }
        }
        this.starts = Arrays.copyOf(found, count);
        this.length = text.length();
    }

    @Override
    public Pos at(int offset) {
        int clamped = Math.max(0, Math.min(offset, length));
        int index = Arrays.binarySearch(starts, clamped);
        int line = index >= 0 ? index : -index - 2;
        return new Pos(line + 1, clamped - starts[line] + 1);
    }
}
