package dev.planvm.json;

import java.util.Collection;
import java.util.Optional;

/** "Did you mean ...?" for misspelt names: instruction types, expectation keys. */
public final class Spelling {

    private Spelling() {}

    /** The first of {@code known} within two edits of {@code word} (case-insensitive), if any. */
    public static Optional<String> closest(String word, Collection<String> known) {
        String lower = word.toLowerCase();
        for (String candidate : known) {
            if (distance(lower, candidate) <= 2) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    public static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
