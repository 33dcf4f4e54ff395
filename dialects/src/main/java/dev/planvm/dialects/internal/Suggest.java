package dev.planvm.dialects.internal;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** "Did you mean" for misspelt names, and short lists for messages. */
public final class Suggest {

    private Suggest() {}

    /** The known word closest to {@code word}, when it is close enough to be a likely typo. */
    public static Optional<String> closest(String word, Collection<String> known) {
        if (word.length() > 64) {
            return Optional.empty();
        }
        int limit = word.length() <= 3 ? 1 : 2;
        String best = null;
        int bestDistance = limit + 1;
        for (String candidate : known) {
            if (Math.abs(candidate.length() - word.length()) > limit || candidate.equals(word)) {
                continue;
            }
            int d = distance(word, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Levenshtein distance, with a swap of two neighbours counted as one edit. */
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

    /** At most {@code max} names joined with ", ", then "and N more". */
    public static String list(List<String> names, int max) {
        if (names.size() <= max) {
            return String.join(", ", names);
        }
        return String.join(", ", names.subList(0, max)) + " and " + (names.size() - max) + " more";
    }
}
