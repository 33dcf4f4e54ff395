package dev.planvm.json;

import java.util.ArrayList;
import java.util.List;

/**
 * The text part of {@link JsonDiff}: a unified-style line diff of two texts. Lines start with
 * {@code -} (expected), {@code +} (actual) or a space (context, {@value #CONTEXT} lines around each
 * change), hunks with {@code @@ -l,n +l,n @@}. Long lines are cut to a window around their first
 * difference, and the whole diff to {@value #MAX_LINES} lines.
 */
final class JsonDiffText {

    static final int CONTEXT = 2;
    static final int MAX_LINES = 40;
    static final int LINE_CHARS = 160;
    private static final int LEAD_CHARS = 40;
    private static final long LCS_CELLS = 1_000_000;

    private JsonDiffText() {}

    /** One line of the edit script: kind ' ', '-' or '+'; the positions in both texts before it. */
    private record Op(char kind, String line, int expectedAt, int actualAt) {}

    static List<String> diff(String expected, String actual) {
        List<Op> ops = script(expected.split("\n", -1), actual.split("\n", -1));
        int[] windows = windows(ops);
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < ops.size()) {
            if (ops.get(i).kind() == ' ') {
                i++;
                continue;
            }
            int start = Math.max(0, i - CONTEXT);
            int end = hunkEnd(ops, i);
            out.add(header(ops, start, end));
            for (int k = start; k < end; k++) {
                out.add(ops.get(k).kind() + render(ops.get(k).line(), windows[k]));
            }
            i = end;
        }
        if (out.size() > MAX_LINES) {
            int more = out.size() - MAX_LINES;
            out.subList(MAX_LINES, out.size()).clear();
            out.add("… (" + more + " more diff line" + (more == 1 ? "" : "s") + ")");
        }
        return out;
    }

    /** The end (exclusive) of the hunk whose first change is at {@code first}. */
    private static int hunkEnd(List<Op> ops, int first) {
        int lastChange = first;
        for (int k = first + 1; k < ops.size() && k - lastChange <= 2 * CONTEXT + 1; k++) {
            if (ops.get(k).kind() != ' ') {
                lastChange = k;
            }
        }
        return Math.min(ops.size(), lastChange + CONTEXT + 1);
    }

    private static String header(List<Op> ops, int start, int end) {
        int expectedCount = 0;
        int actualCount = 0;
        for (Op op : ops.subList(start, end)) {
            expectedCount += op.kind() == '+' ? 0 : 1;
            actualCount += op.kind() == '-' ? 0 : 1;
        }
        Op first = ops.get(start);
        return "@@ -" + (first.expectedAt() + (expectedCount == 0 ? 0 : 1)) + "," + expectedCount + " +"
                + (first.actualAt() + (actualCount == 0 ? 0 : 1)) + "," + actualCount + " @@";
    }

    /** The shortest edit script: common head and tail, then a longest common subsequence. */
    private static List<Op> script(String[] a, String[] b) {
        int head = 0;
        while (head < a.length && head < b.length && a[head].equals(b[head])) {
            head++;
        }
        int tail = 0;
        while (tail < a.length - head
                && tail < b.length - head
                && a[a.length - 1 - tail].equals(b[b.length - 1 - tail])) {
            tail++;
        }
        List<Op> ops = new ArrayList<>();
        for (int k = 0; k < head; k++) {
            ops.add(new Op(' ', a[k], k, k));
        }
        middle(a, b, head, a.length - tail, b.length - tail, ops);
        for (int k = tail; k > 0; k--) {
            ops.add(new Op(' ', a[a.length - k], a.length - k, b.length - k));
        }
        return ops;
    }

    /** The changed middle; beyond {@value #LCS_CELLS} cells of table, all of it removed then all added. */
    private static void middle(String[] a, String[] b, int from, int aEnd, int bEnd, List<Op> ops) {
        int n = aEnd - from;
        int m = bEnd - from;
        int[][] lcs = (long) n * m <= LCS_CELLS ? lcsTable(a, b, from, n, m) : null;
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (lcs != null && i < n && j < m && a[from + i].equals(b[from + j])) {
                ops.add(new Op(' ', a[from + i], from + i, from + j));
                i++;
                j++;
            } else if (i < n && (j == m || lcs == null || lcs[i + 1][j] >= lcs[i][j + 1])) {
                ops.add(new Op('-', a[from + i], from + i, from + j));
                i++;
            } else {
                ops.add(new Op('+', b[from + j], from + i, from + j));
                j++;
            }
        }
    }

    /** {@code lcs[i][j]}: the length of the longest common subsequence of the suffixes from i and j. */
    private static int[][] lcsTable(String[] a, String[] b, int from, int n, int m) {
        int[][] lcs = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a[from + i].equals(b[from + j])
                        ? lcs[i + 1][j + 1] + 1
                        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        return lcs;
    }

    /**
     * Where each line's shown window starts: a removed line and the added line it pairs with (the
     * k-th of each in one run of changes) both start a little before their first difference.
     */
    private static int[] windows(List<Op> ops) {
        int[] windows = new int[ops.size()];
        int k = 0;
        while (k < ops.size()) {
            if (ops.get(k).kind() == ' ') {
                k++;
                continue;
            }
            List<Integer> removed = new ArrayList<>();
            List<Integer> added = new ArrayList<>();
            for (; k < ops.size() && ops.get(k).kind() != ' '; k++) {
                (ops.get(k).kind() == '-' ? removed : added).add(k);
            }
            for (int p = 0; p < Math.min(removed.size(), added.size()); p++) {
                String before = ops.get(removed.get(p)).line();
                String after = ops.get(added.get(p)).line();
                int start = Math.max(before.length(), after.length()) > LINE_CHARS
                        ? Math.max(0, commonPrefix(before, after) - LEAD_CHARS)
                        : 0;
                windows[removed.get(p)] = start;
                windows[added.get(p)] = start;
            }
        }
        return windows;
    }

    private static int commonPrefix(String a, String b) {
        int n = 0;
        while (n < a.length() && n < b.length() && a.charAt(n) == b.charAt(n)) {
            n++;
        }
        return n;
    }

    /** The line from {@code start}, at most {@value #LINE_CHARS} characters, {@code …} where cut; CR shown as \r. */
    private static String render(String line, int start) {
        String text = line.replace("\r", "\\r");
        if (text.length() <= LINE_CHARS && start == 0) {
            return text;
        }
        int from = Math.min(start, Math.max(0, text.length() - LINE_CHARS));
        int to = Math.min(text.length(), from + LINE_CHARS);
        return (from > 0 ? "…" : "") + text.substring(from, to) + (to < text.length() ? "…" : "");
    }
}
