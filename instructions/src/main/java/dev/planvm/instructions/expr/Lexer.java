package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Hand-written scanner. Tokens are produced one at a time on demand, so a reference inside a
 * template is never scanned beyond its closing {@code }}. Offsets are into the whole source.
 */
final class Lexer {

    private final String src;
    private int pos;

    Lexer(String src, int start) {
        this.src = src;
        this.pos = start;
    }

    /** Scans and returns the next token; returns EOF tokens forever at the end. */
    Token next() {
        skipWhitespace();
        if (pos >= src.length()) {
            return new Token(TokenType.EOF, "", null, src.length());
        }
        int start = pos;
        char c = src.charAt(pos);
        if (isDigit(c)) {
            return number();
        }
        if (isIdentStart(c)) {
            return identifier();
        }
        if (c == '\'' || c == '"') {
            return string();
        }
        pos++;
        switch (c) {
            case '(':
                return punct(TokenType.LPAREN, start);
            case ')':
                return punct(TokenType.RPAREN, start);
            case '[':
                return punct(TokenType.LBRACKET, start);
            case ']':
                return punct(TokenType.RBRACKET, start);
            case '{':
                return punct(TokenType.LBRACE, start);
            case '}':
                return punct(TokenType.RBRACE, start);
            case ',':
                return punct(TokenType.COMMA, start);
            case '.':
                return punct(TokenType.DOT, start);
            case ':':
                return punct(TokenType.COLON, start);
            case '+':
                return punct(TokenType.PLUS, start);
            case '-':
                return punct(TokenType.MINUS, start);
            case '*':
                return punct(TokenType.STAR, start);
            case '/':
                return punct(TokenType.SLASH, start);
            case '%':
                return punct(TokenType.PERCENT, start);
            case '!':
                return punct(match('=') ? TokenType.BANG_EQ : TokenType.BANG, start);
            case '<':
                return punct(match('=') ? TokenType.LE : TokenType.LT, start);
            case '>':
                return punct(match('=') ? TokenType.GE : TokenType.GT, start);
            case '=':
                if (match('=')) {
                    return punct(TokenType.EQ_EQ, start);
                }
                throw new ExprSyntaxException("unexpected '=' (use '==' to compare)", start);
            case '&':
                if (match('&')) {
                    return punct(TokenType.AND_AND, start);
                }
                throw new ExprSyntaxException("unexpected '&' (use '&&' for 'and')", start);
            case '|':
                if (match('|')) {
                    return punct(TokenType.OR_OR, start);
                }
                throw new ExprSyntaxException("unexpected '|' (use '||' for 'or')", start);
            default:
                throw new ExprSyntaxException("unexpected character " + describeChar(start), start);
        }
    }

    private Token punct(TokenType type, int start) {
        return new Token(type, type.fixedText(), null, start);
    }

    private boolean match(char expected) {
        if (pos < src.length() && src.charAt(pos) == expected) {
            pos++;
            return true;
        }
        return false;
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < src.length() ? src.charAt(i) : '\0';
    }

    private void skipWhitespace() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                pos++;
            } else {
                return;
            }
        }
    }

    private Token identifier() {
        int start = pos;
        while (pos < src.length() && isIdentPart(src.charAt(pos))) {
            pos++;
        }
        String name = src.substring(start, pos);
        return switch (name) {
            case "true" -> new Token(TokenType.TRUE, name, BooleanNode.TRUE, start);
            case "false" -> new Token(TokenType.FALSE, name, BooleanNode.FALSE, start);
            case "null" -> new Token(TokenType.NULL, name, NullNode.getInstance(), start);
            default -> new Token(TokenType.IDENT, name, null, start);
        };
    }

    private Token number() {
        int start = pos;
        if (src.charAt(pos) == '0' && isDigit(peek(1))) {
            throw new ExprSyntaxException("a number cannot start with a leading zero", start);
        }
        skipDigits();
        boolean integral = true;
        if (peek(0) == '.') {
            if (!isDigit(peek(1))) {
                throw new ExprSyntaxException("expected a digit after the decimal point", pos + 1);
            }
            pos++;
            skipDigits();
            integral = false;
        }
        char e = peek(0);
        if ((e == 'e' || e == 'E') && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
            pos += 2;
            skipDigits();
            integral = false;
        }
        if (pos < src.length() && isIdentPart(src.charAt(pos))) {
            if (integral) {
                throw new ExprSyntaxException("a variable name cannot start with a digit", start);
            }
            throw new ExprSyntaxException("unexpected " + describeChar(pos) + " after a number", pos);
        }
        String text = src.substring(start, pos);
        return new Token(TokenType.NUMBER, text, numberValue(text, integral, start), start);
    }

    private static JsonNode numberValue(String text, boolean integral, int start) {
        if (integral) {
            try {
                long l = Long.parseLong(text);
                return l == (int) l ? IntNode.valueOf((int) l) : LongNode.valueOf(l);
            } catch (NumberFormatException tooBig) {
                // falls through to double
            }
        }
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d)) {
            throw new ExprSyntaxException("number " + text + " is too large", start);
        }
        return DoubleNode.valueOf(d);
    }

    private void skipDigits() {
        while (pos < src.length() && isDigit(src.charAt(pos))) {
            pos++;
        }
    }

    private Token string() {
        int start = pos;
        char quote = src.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= src.length()) {
                throw new ExprSyntaxException("unterminated string", start);
            }
            char c = src.charAt(pos);
            if (c == quote) {
                pos++;
                break;
            }
            if (c == '\\') {
                escape(sb, start);
            } else {
                sb.append(c);
                pos++;
            }
        }
        return new Token(TokenType.STRING, src.substring(start, pos), TextNode.valueOf(sb.toString()), start);
    }

    /** Decodes the escape at {@code pos} (a backslash) into {@code sb}. */
    private void escape(StringBuilder sb, int stringStart) {
        int at = pos;
        if (pos + 1 >= src.length()) {
            throw new ExprSyntaxException("unterminated string", stringStart);
        }
        char c = src.charAt(pos + 1);
        pos += 2;
        switch (c) {
            case 'n':
                sb.append('\n');
                return;
            case 't':
                sb.append('\t');
                return;
            case 'r':
                sb.append('\r');
                return;
            case '\\':
            case '\'':
            case '"':
            case '/':
                sb.append(c);
                return;
            case 'u':
                int code = 0;
                for (int i = 0; i < 4; i++) {
                    int digit = pos < src.length() ? Character.digit(src.charAt(pos), 16) : -1;
                    if (digit < 0 || !isAsciiHex(src.charAt(pos))) {
                        throw new ExprSyntaxException("invalid escape '\\u' in string: expected 4 hex digits", at);
                    }
                    code = code * 16 + digit;
                    pos++;
                }
                sb.append((char) code);
                return;
            default:
                throw new ExprSyntaxException(
                        "invalid escape '\\" + new String(Character.toChars(src.codePointAt(at + 1))) + "' in string",
                        at);
        }
    }

    private String describeChar(int at) {
        int cp = src.codePointAt(at);
        if (cp < 0x20 || cp == 0x7f || Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
            return String.format("U+%04X", cp);
        }
        return "'" + new String(Character.toChars(cp)) + "'";
    }

    private static boolean isAsciiHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isIdentStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c);
    }
}
