package dev.planvm.instructions.reach;

/**
 * Glob matching over whole names, the syntax of the tool policy: {@code *} matches any run of characters
 * (none, and {@code :} too), {@code ?} exactly one, every other character itself.
 */
final class Glob {

    private Glob() {}

    /** Iterative wildcard matching with backtracking to the last {@code *}; no regex. */
    static boolean matches(String glob, String name) {
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
