package dev.planvm.tools;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One pass over a text that replaces every run of at least {@link Redactor#MIN_LENGTH} characters
 * that starts like a secret's form (and then goes on as far as it matches: the whole form, or the
 * form cut short), or, scanning for ends, every such run that ends like one. A rolling hash of the
 * {@link Redactor#MIN_LENGTH} characters under the window finds candidates, so the cost is one pass
 * whatever the number of secrets.
 */
final class FormScanner {

    private static final int W = Redactor.MIN_LENGTH;
    private static final long BASE = 1_000_003L;
    private static final long BASE_POW;

    static {
        long pow = 1;
        for (int i = 1; i < W; i++) {
            pow *= BASE;
        }
        BASE_POW = pow;
    }

    /** Forms by the hash of their first (or last) {@link #W} characters. */
    private final Map<Long, List<Form>> byWindow = new HashMap<>();
    /** A bit per low 16 bits of those hashes: most windows are ruled out without a map lookup. */
    private final long[] filter = new long[1 << 10];

    private final boolean heads;

    /** @param heads scan for runs that start like a form ({@code true}) or end like one */
    FormScanner(List<Form> forms, boolean heads) {
        this.heads = heads;
        for (Form form : forms) {
            String text = form.text();
            int at = heads ? 0 : text.length() - W;
            long h = hash(text, at);
            byWindow.computeIfAbsent(h, k -> new ArrayList<>()).add(form);
            filter[(int) (h >>> 6) & (filter.length - 1)] |= 1L << (h & 63);
        }
    }

    String redact(String text) {
        int n = text.length();
        if (n < W || byWindow.isEmpty()) {
            return text;
        }
        StringBuilder out = null;
        int emitted = 0;
        int i = 0;
        long h = hash(text, 0);
        while (i + W <= n) {
            List<Form> candidates =
                    (filter[(int) (h >>> 6) & (filter.length - 1)] & (1L << (h & 63))) == 0 ? null : byWindow.get(h);
            if (candidates != null) {
                int[] run = heads ? forward(text, i, candidates) : backward(text, i, emitted, candidates);
                if (run != null) {
                    out = out == null ? new StringBuilder(n) : out;
                    out.append(text, emitted, run[0])
                            .append(candidates.get(run[2]).placeholder());
                    emitted = run[1];
                    i = run[1];
                    if (i + W <= n) {
                        h = hash(text, i);
                    }
                    continue;
                }
            }
            if (i + W < n) {
                h = (h - text.charAt(i) * BASE_POW) * BASE + text.charAt(i + W);
            }
            i++;
        }
        if (out == null) {
            return text;
        }
        return out.append(text, emitted, n).toString();
    }

    /** The longest run at {@code i} that starts like a candidate: {start, end, candidate}, or null. */
    private static int[] forward(String text, int i, List<Form> candidates) {
        int[] best = null;
        for (int c = 0; c < candidates.size(); c++) {
            String form = candidates.get(c).text();
            if (!text.regionMatches(i, form, 0, W)) {
                continue;
            }
            int k = W;
            while (i + k < text.length() && k < form.length() && text.charAt(i + k) == form.charAt(k)) {
                k++;
            }
            boolean whole = k == form.length();
            if (best == null || k > best[1] - i || k == best[1] - i && whole) {
                best = new int[] {i, i + k, c};
            }
        }
        return best;
    }

    /** The longest run ending at {@code i + W} that ends like a candidate, not reaching before {@code floor}. */
    private static int[] backward(String text, int i, int floor, List<Form> candidates) {
        int[] best = null;
        for (int c = 0; c < candidates.size(); c++) {
            String form = candidates.get(c).text();
            if (!text.regionMatches(i, form, form.length() - W, W)) {
                continue;
            }
            int start = i;
            int s = form.length() - W - 1;
            while (start > floor && s >= 0 && text.charAt(start - 1) == form.charAt(s)) {
                start--;
                s--;
            }
            if (best == null || start < best[0]) {
                best = new int[] {start, i + W, c};
            }
        }
        return best;
    }

    private static long hash(String text, int from) {
        long h = 0;
        for (int k = 0; k < W; k++) {
            h = h * BASE + text.charAt(from + k);
        }
        return h;
    }
}
