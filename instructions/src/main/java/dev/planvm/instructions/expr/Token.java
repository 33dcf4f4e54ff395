package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One lexical token.
 *
 * @param type the kind of token
 * @param text the identifier name, or the raw source text of a literal or punctuation
 * @param value the literal value of a NUMBER, STRING, TRUE, FALSE or NULL token, else null
 * @param pos 0-based offset of the first character in the original string
 */
record Token(TokenType type, String text, JsonNode value, int pos) {

    /** Describes the token for messages, e.g. {@code ')'}, {@code 'name'}, {@code number 42}. */
    String describe() {
        switch (type) {
            case EOF:
                return "end of expression";
            case NUMBER:
                return "number " + text;
            case STRING:
                String s = value.textValue();
                if (s.length() > 20) {
                    s = s.substring(0, 20) + "...";
                }
                return "string " + Exprs.quote(s);
            default:
                return "'" + text + "'";
        }
    }

    /** Whether this token may serve as a member or field name (identifiers and keywords). */
    boolean isName() {
        return type == TokenType.IDENT || type == TokenType.TRUE || type == TokenType.FALSE || type == TokenType.NULL;
    }
}
