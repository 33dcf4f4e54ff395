package dev.planvm.dialects.internal;

import dev.planvm.instructions.Diagnostic;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The diagnostics of one compilation, each located by line and column in its message
 * ({@code line 3, column 7: ...}) with no {@code seq_no} and the pointer {@code ""}: a dialect
 * source has no instructions yet. After {@link #MAX} errors the rest are summed up in one line, so
 * a hostile file cannot produce an unbounded report.
 */
public final class Problems {

    /** The most errors reported one by one. */
    public static final int MAX = 100;

    private record Entry(Pos pos, Diagnostic diagnostic) {}

    private final List<Entry> diagnostics = new ArrayList<>();
    private int errors;
    private int dropped;

    public void error(Pos pos, String message) {
        if (errors >= MAX) {
            dropped++;
            return;
        }
        errors++;
        diagnostics.add(new Entry(pos, Diagnostic.error(null, "", located(pos, message))));
    }

    public void warning(Pos pos, String message) {
        if (diagnostics.size() < 2 * MAX) {
            diagnostics.add(new Entry(pos, Diagnostic.warning(null, "", located(pos, message))));
        }
    }

    /** An error about the whole file (its size, its encoding). */
    public void fileError(String message) {
        errors++;
        diagnostics.add(new Entry(null, Diagnostic.error(null, "", oneLine(message))));
    }

    public boolean hasErrors() {
        return errors > 0;
    }

    /** Whether more errors would only be counted: callers may stop early. */
    public boolean full() {
        return errors >= MAX;
    }

    /** Every diagnostic, in file order (problems of the whole file first). */
    public List<Diagnostic> list() {
        List<Diagnostic> all = new ArrayList<>();
        diagnostics.stream()
                .sorted(Comparator.comparingInt(
                                (Entry e) -> e.pos() == null ? 0 : e.pos().line())
                        .thenComparingInt(e -> e.pos() == null ? 0 : e.pos().column()))
                .forEach(e -> all.add(e.diagnostic()));
        if (dropped > 0) {
            all.add(Diagnostic.error(
                    null,
                    "",
                    "and " + dropped + " more error" + (dropped == 1 ? "" : "s") + " (only the first " + MAX
                            + " are listed)"));
        }
        return all;
    }

    /** The most characters of one message: names quoted from a hostile source stay short. */
    static final int MAX_MESSAGE = 400;

    private static String located(Pos pos, String message) {
        return (pos == null ? "" : pos.describe() + ": ") + oneLine(message);
    }

    /** {@code message} on one line (control characters escaped) and at most {@link #MAX_MESSAGE} characters. */
    static String oneLine(String message) {
        StringBuilder sb = new StringBuilder(Math.min(message.length(), MAX_MESSAGE + 16));
        int i = 0;
        for (; i < message.length() && sb.length() < MAX_MESSAGE; i++) {
            char c = message.charAt(i);
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f || c == '\u2028' || c == '\u2029' || c == '\u0085') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        if (i < message.length()) {
            sb.setLength(Math.min(sb.length(), MAX_MESSAGE - 3));
            sb.append("...");
        }
        return sb.toString();
    }
}
