package dev.planvm.instructions.expr;

import java.util.Locale;

/**
 * Upper- and lower-casing in time linear in the text. The JDK's {@link String#toUpperCase} and
 * {@link String#toLowerCase} copy their whole result array again for every character whose case
 * mapping is longer than itself ({@code ß} to {@code SS}, {@code İ} to {@code i̇}), so a million
 * of them take hours. Long texts are therefore mapped in short pieces, cut at whitespace where
 * there is some (whitespace is neither cased nor case-ignorable, so the one context-sensitive rule
 * of the root locale, Greek final sigma, sees the same neighbours as in the whole text), and never
 * inside a surrogate pair. The result is the JDK's.
 */
final class CaseMapping {

    /** Texts up to this length are mapped whole; longer ones in pieces of about this length. */
    private static final int PIECE = 256;
    /** How far back from a piece's end a cut looks for whitespace. */
    private static final int LOOK_BACK = 64;

    private CaseMapping() {}

    static String upper(String text) {
        return map(text, true);
    }

    static String lower(String text) {
        return map(text, false);
    }

    private static String map(String text, boolean upper) {
        if (text.length() <= PIECE) {
            return mapped(text, upper);
        }
        StringBuilder result = new StringBuilder(text.length());
        int from = 0;
        while (from < text.length()) {
            int to = cut(text, from);
            result.append(mapped(text.substring(from, to), upper));
            from = to;
        }
        return result.toString();
    }

    private static String mapped(String piece, boolean upper) {
        return upper ? piece.toUpperCase(Locale.ROOT) : piece.toLowerCase(Locale.ROOT);
    }

    /** Where the piece from {@code from} ends: after whitespace near its end, else not inside a surrogate pair. */
    private static int cut(String text, int from) {
        int end = from + PIECE;
        if (end >= text.length()) {
            return text.length();
        }
        for (int i = end; i > end - LOOK_BACK; i--) {
            if (Character.isWhitespace(text.charAt(i - 1))) {
                return i;
            }
        }
        return Character.isLowSurrogate(text.charAt(end)) ? end + 1 : end;
    }
}
