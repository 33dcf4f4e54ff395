package dev.planvm.json;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The one "did you mean ...?" of planvm, for every misspelt name: instruction types, tools,
 * expectation and configuration keys, request fields, template parameters, OpenAPI operations, a
 * dialect's variables and functions.
 *
 * <p>The rule: case is ignored, and a name is a likely typo of a known one within two edits (one for
 * a name of three characters or fewer, where two edits make anything of anything) — an edit inserts,
 * deletes or replaces a character, or swaps two neighbours. The closest known name is suggested, the
 * first one in {@code known}'s order among equally close ones; never the word itself, and nothing for
 * a word longer than {@value #MAX_WORD} characters (no one misspells those, and the cost stays small).
 */
public final class Spelling {

    /** The longest word a suggestion is looked for. */
    static final int MAX_WORD = 64;

    private Spelling() {}

    /** The known name {@code word} most likely misspells, if any (see the rule above). */
    public static Optional<String> closest(String word, Collection<String> known) {
        if (word.length() > MAX_WORD) {
            return Optional.empty();
        }
        String lower = word.toLowerCase(Locale.ROOT);
        int limit = word.length() <= 3 ? 1 : 2;
        String best = null;
        int bestDistance = limit + 1;
        for (String candidate : known) {
            if (candidate.equals(word) || Math.abs(candidate.length() - word.length()) > limit) {
                continue;
            }
            int d = distance(lower, candidate.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Edits from {@code a} to {@code b}: insertions, deletions, replacements and swaps of two neighbours. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
