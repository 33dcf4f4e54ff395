package dev.planvm.json;

/**
 * The one glob syntax of planvm's tool rules, over whole names: {@code *} matches any run of characters (none,
 * and {@code :} too), {@code ?} exactly one, every other character itself. The tool policy, approval rules and
 * canonical names match with it when a run calls a tool, and the reach analysis with the same rules before it
 * runs: one matcher, so the two can never disagree on what a rule names.
 */
public final class Globs {

    private Globs() {}

    /** Whether {@code glob} matches the whole of {@code name}: iterative, backtracking to the last {@code *}; no regex. */
    public static boolean matches(String glob, String name) {
        int g = 0;
        int n = 0;
        int star = -1;
        int resume = 0;
        while (n < name.length()) {
            if (g < glob.length() && (glob.charAt(g) == '?' || glob.charAt(g) == name.charAt(n))) {
                g++;
                n++;
            } else if (g < glob.length() && glob.charAt(g) == '*') {
                star = g++;
                resume = n;
            } else if (star >= 0) {
                g = star + 1;
                n = ++resume;
            } else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*') {
            g++;
        }
        return g == glob.length();
    }
}
