package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One token of a dialect expression or JavaScript-subset program.
 *
 * @param kind          what it is
 * @param text          the source text ({@code ""} at the end)
 * @param value         the value of a number or string literal, else null
 * @param offset        where it starts in the scanned text
 * @param newlineBefore whether a line break separates it from the previous token (for optional semicolons)
 */
public record Token(Kind kind, String text, JsonNode value, int offset, boolean newlineBefore) {

    /** Token kinds. {@code OPERATOR} is any operator the dialects do not have, kept for a clear message. */
    public enum Kind {
        IDENT,
        NUMBER,
        STRING,
        BACKTICK,
        LPAREN,
        RPAREN,
        LBRACKET,
        RBRACKET,
        LBRACE,
        RBRACE,
        COMMA,
        DOT,
        COLON,
        SEMI,
        EQUALS,
        PLUS,
        MINUS,
        OPERATOR,
        EOF
    }

    public boolean is(Kind k) {
        return kind == k;
    }

    /** Whether this is the identifier (or keyword) {@code word}. */
    public boolean isWord(String word) {
        return kind == Kind.IDENT && text.equals(word);
    }

    /** For messages: {@code 'x'}, {@code the number 5}, {@code the end of the text}. */
    public String describe() {
        return switch (kind) {
            case EOF -> "the end of the text";
            case STRING -> "a string";
            case NUMBER -> "the number " + text;
            case BACKTICK -> "a template literal";
            default -> "'" + text + "'";
        };
    }
}
