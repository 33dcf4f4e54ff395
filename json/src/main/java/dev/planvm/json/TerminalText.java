package dev.planvm.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectWriter;

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

    /**
     * JSON written for a terminal: besides what JSON escapes itself (controls below U+0020), DEL,
     * the C1 controls, the line and paragraph separators and the bidi controls are written as
     * {@code \}{@code uXXXX} escapes. The JSON means the same; it just cannot drive a terminal.
     */
    public static final ObjectWriter JSON =
            JsonMappers.mapper(JsonLimits.STORE).writer().with(new Escapes());

    private TerminalText() {}

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
        return c < 0x20
                || (c >= 0x7f && c <= 0x9f)
                || c == 0x2028
                || c == 0x2029 // line and paragraph separators
                || (c >= 0x202a && c <= 0x202e)
                || (c >= 0x2066 && c <= 0x2069) // bidi embeddings, overrides, isolates
                || c == 0x200e
                || c == 0x200f
                || c == 0x061c
                || Character.isSurrogate(c); // direction marks; lone halves
    }

    /** The escapes of {@link #JSON}. */
    private static final class Escapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;

        private final int[] ascii = standardAsciiEscapesForJSON();

        Escapes() {
            ascii[0x7f] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int c) {
            if (!unsafe((char) c) || Character.isSurrogate((char) c)) {
                return null; // surrogates are written as they are: pairs must stay pairs
            }
            StringBuilder escaped = new StringBuilder(6);
            escape((char) c, escaped);
            return new SerializedString(escaped.toString());
        }
    }

    private static void escape(char c, StringBuilder out) {
        switch (c) {
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            default ->
                out.append("\\u")
                        .append(HEX[c >> 12 & 0xf])
                        .append(HEX[c >> 8 & 0xf])
                        .append(HEX[c >> 4 & 0xf])
                        .append(HEX[c & 0xf]);
        }
    }
}
