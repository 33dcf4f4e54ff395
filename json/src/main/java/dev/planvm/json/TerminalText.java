package dev.planvm.json;

/**
 * Text that is safe to print on one line of a terminal. Plan text, cassette text, tool answers and
 * file names reach messages, and printed as they are they could forge output lines (a newline,
 * a carriage return) or drive the terminal (an ESC sequence, a C1 control, a bidi override). Every
 * such character is written as a visible escape instead: {@code \n}, {@code \r}, {@code \t}, and
 * {@code \}{@code u001b}-style for the others (C0 and C1 controls, DEL, the Unicode line and
 * paragraph separators, bidi embeddings, overrides and isolates, lone surrogates). Everything else,
 * backslashes included, is left as it is, so ordinary text reads unchanged.
 */
public final class TerminalText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TerminalText() {
    }

    /** {@code text} with every character that could forge a line or drive a terminal escaped; null stays null. */
    public static String safe(String text) {
        if (text == null) {
            return null;
        }
        int first = firstUnsafe(text);
        if (first < 0) {
            return text;
        }
        StringBuilder safe = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                safe.append(c).append(text.charAt(++i));
            } else if (unsafe(c)) {
                escape(c, safe);
            } else {
                safe.append(c);
            }
        }
        return safe.toString();
    }

    /** Whether {@code text} prints as it is (nothing in it needs escaping). */
    public static boolean isSafe(String text) {
        return text == null || firstUnsafe(text) < 0;
    }

    private static int firstUnsafe(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (unsafe(c)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
                || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069') || c == '\u200e' || c == '\u200f'
                || c == '\u061c' || Character.isSurrogate(c);
    }

    private static void escape(char c, StringBuilder out) {
        switch (c) {
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            default -> out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf])
                    .append(HEX[c & 0xf]);
        }
    }
}
