package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Token.Kind;

/**
 * The scanner shared by both dialects: produces tokens on demand from an offset of a text, so an
 * expression inside a YAML {@code ${...}} is never scanned past its closing brace, and template
 * literals are scanned chunk by chunk ({@link #templateChunk(int)}) by the parser that drives it.
 *
 * <p>Strings take single or double quotes and JavaScript's escapes; numbers are decimal, as JavaScript
 * writes them ({@code 1}, {@code 1.5}, {@code .5}, {@code 4.56e-9}; a leading zero, JavaScript's old octal, is
 * refused); names are {@code [A-Za-z_][A-Za-z0-9_]*}. With
 * {@code comments}, line comments ({@code //}) and block comments are skipped (the JavaScript
 * subset); operators the dialects do not have come back as {@code OPERATOR} tokens, so the parser
 * can say so.
 */
public final class Lexer {

    private final String src;
    private final boolean comments;
    private int pos;
    private boolean newline;

    public Lexer(String src, int start, boolean comments) {
        this.src = src;
        this.pos = start;
        this.comments = comments;
    }

    /** Moves the scanner to {@code offset} (error recovery: past a character it could not scan). */
    public void skipTo(int offset) {
        pos = Math.min(Math.max(offset, pos), src.length());
    }

    /** Where the next token (or template chunk) starts being scanned. */
    public int position() {
        return pos;
    }

    /** Scans the next token; at the end, EOF tokens forever. */
    public Token next() {
        newline = false;
        skipSpaceAndComments();
        if (pos >= src.length()) {
            return new Token(Kind.EOF, "", null, src.length(), newline);
        }
        int start = pos;
        char c = src.charAt(pos);
        if ((c >= '0' && c <= '9') || (c == '.' && isDigit(peek(1)))) {
            return number(); // .5 is a number, as in JavaScript
        }
        if (isNameStart(c)) {
            while (pos < src.length() && isNamePart(src.charAt(pos))) {
                pos++;
            }
            if (pos < src.length() && src.charAt(pos) == '$') {
                throw new SyntaxError("'$' cannot be part of a name", pos);
            }
            return token(Kind.IDENT, start);
        }
        if (c == '\'' || c == '"') {
            return string(c);
        }
        pos++;
        return switch (c) {
            case '(' -> token(Kind.LPAREN, start);
            case ')' -> token(Kind.RPAREN, start);
            case '[' -> token(Kind.LBRACKET, start);
            case ']' -> token(Kind.RBRACKET, start);
            case '{' -> token(Kind.LBRACE, start);
            case '}' -> token(Kind.RBRACE, start);
            case ',' -> token(Kind.COMMA, start);
            case '.' -> token(Kind.DOT, start);
            case ':' -> token(Kind.COLON, start);
            case ';' -> token(Kind.SEMI, start);
            case '`' -> token(Kind.BACKTICK, start);
            case '+' -> token(Kind.PLUS, start);
            case '-' -> token(Kind.MINUS, start);
            case '=' -> operatorOr(Kind.EQUALS, start);
            case '*', '/', '%', '!', '<', '>', '&', '|', '?', '~', '^' -> operatorOr(null, start);
            case '$' -> throw new SyntaxError("'$' cannot be part of a name", start);
            default -> throw new SyntaxError("unexpected character " + describeChar(start), start);
        };
    }

    /** A one-character token, or (when {@code single} is null or more operator characters follow) an operator. */
    private Token operatorOr(Kind single, int start) {
        while (pos < src.length() && "=<>&|*?".indexOf(src.charAt(pos)) >= 0 && pos - start < 3) {
            pos++;
        }
        if (single != null && pos == start + 1) {
            return token(single, start);
        }
        return token(Kind.OPERATOR, start);
    }

    private Token token(Kind kind, int start) {
        return new Token(kind, src.substring(start, pos), null, start, newline);
    }

    private void skipSpaceAndComments() {
        while (pos < src.length()) {
            char c = src.charAt(pos);
            if (c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029') {
                newline = true;
                pos++;
            } else if (c == ' ' || c == '\t' || c == '\f' || c == '\u000b' || c == '\u00a0' || c == '\ufeff') {
                pos++;
            } else if (comments && c == '/' && peek(1) == '/') {
                while (pos < src.length() && src.charAt(pos) != '\n' && src.charAt(pos) != '\r') {
                    pos++;
                }
            } else if (comments && c == '/' && peek(1) == '*') {
                int end = src.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw new SyntaxError("unterminated comment: missing '*/'", pos);
                }
                if (src.substring(pos, end).indexOf('\n') >= 0) {
                    newline = true;
                }
                pos = end + 2;
            } else {
                return;
            }
        }
    }

    private char peek(int ahead) {
        int i = pos + ahead;
        return i < src.length() ? src.charAt(i) : '\0';
    }

    private Token number() {
        int start = pos;
        if (src.charAt(pos) == '0' && pos + 1 < src.length() && isNamePart(src.charAt(pos + 1))) {
            throw new SyntaxError(
                    "a number cannot start with 0 followed by more digits or letters: "
                            + "write it in plain decimal (or as a string)",
                    start);
        }
        boolean integral = true;
        skipDigits();
        if (peek(0) == '.' && isDigit(peek(1))) {
            pos++;
            skipDigits();
            integral = false;
        }
        if ((peek(0) == 'e' || peek(0) == 'E')
                && (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
            pos += 2;
            skipDigits();
            integral = false;
        }
        if (pos < src.length() && isNamePart(src.charAt(pos))) {
            throw new SyntaxError("unexpected " + describeChar(pos) + " after a number", pos);
        }
        String text = src.substring(start, pos);
        return new Token(Kind.NUMBER, text, numberValue(text, integral, start), start, newline);
    }

    private static JsonNode numberValue(String text, boolean integral, int start) {
        if (integral && text.length() < 19) {
            long l = Long.parseLong(text);
            return l == (int) l ? IntNode.valueOf((int) l) : LongNode.valueOf(l);
        }
        double d = Double.parseDouble(text);
        if (Double.isInfinite(d)) {
            throw new SyntaxError("the number " + abbreviate(text) + " is too large", start);
        }
        return DoubleNode.valueOf(d);
    }

    private void skipDigits() {
        while (pos < src.length() && isDigit(src.charAt(pos))) {
            pos++;
        }
    }

    private Token string(char quote) {
        int start = pos++;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= src.length() || src.charAt(pos) == '\n' || src.charAt(pos) == '\r') {
                throw new SyntaxError("unterminated string: missing the closing " + quote, start);
            }
            char c = src.charAt(pos);
            if (c == quote) {
                pos++;
                return new Token(
                        Kind.STRING, src.substring(start, pos), TextNode.valueOf(sb.toString()), start, newline);
            }
            if (c == '\\') {
                escape(sb, start);
            } else {
                sb.append(c);
                pos++;
            }
        }
    }

    /**
     * Scans literal text of a template literal from {@link #position()} (just after the opening
     * backtick, or just after the <code>}</code> closing a substitution) up to the next <code>${</code> or the
     * closing backtick, and steps over that delimiter.
     */
    public TemplateChunk templateChunk(int literalStart) {
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= src.length()) {
                throw new SyntaxError("unterminated template literal: missing the closing `", literalStart);
            }
            char c = src.charAt(pos);
            if (c == '`') {
                pos++;
                return new TemplateChunk(sb.toString(), false);
            }
            if (c == '$' && peek(1) == '{') {
                pos += 2;
                return new TemplateChunk(sb.toString(), true);
            }
            if (c == '\\') {
                escape(sb, literalStart);
            } else {
                sb.append(c);
                pos++;
            }
        }
    }

    /** Text of a template literal up to a substitution ({@code endsWithSubstitution}) or its end. */
    public record TemplateChunk(String text, boolean endsWithSubstitution) {}

    /** Decodes the escape whose backslash is at {@code pos}. */
    private void escape(StringBuilder sb, int literalStart) {
        int at = pos;
        if (pos + 1 >= src.length()) {
            throw new SyntaxError("unterminated string", literalStart);
        }
        char c = src.charAt(pos + 1);
        pos += 2;
        switch (c) {
            case 'n' -> sb.append('\n');
            case 't' -> sb.append('\t');
            case 'r' -> sb.append('\r');
            case 'b' -> sb.append('\b');
            case 'f' -> sb.append('\f');
            case 'v' -> sb.append('\u000b');
            case '0' -> {
                if (isDigit(peek(0))) {
                    throw new SyntaxError("octal escapes are not allowed in strings", at);
                }
                sb.append('\0');
            }
            case '\n' -> {} // line continuation
            case '\r' -> {
                if (peek(0) == '\n') {
                    pos++;
                }
            }
            case 'x' -> sb.append((char) hex(2, at));
            case 'u' -> {
                if (peek(0) == '{') {
                    pos++;
                    int code = 0;
                    int digits = 0;
                    while (peek(0) != '}') {
                        int d = Character.digit(peek(0), 16);
                        if (d < 0 || ++digits > 6) {
                            throw new SyntaxError("invalid escape '\\u{...}': expected 1 to 6 hex digits", at);
                        }
                        code = code * 16 + d;
                        pos++;
                    }
                    pos++;
                    if (digits == 0 || code > Character.MAX_CODE_POINT) {
                        throw new SyntaxError("invalid escape '\\u{...}': not a code point", at);
                    }
                    sb.appendCodePoint(code);
                } else {
                    sb.append((char) hex(4, at));
                }
            }
            default -> {
                if (c >= '1' && c <= '9') {
                    throw new SyntaxError("octal escapes are not allowed in strings", at);
                }
                sb.append(c); // \\ \' \" \` \$ \/ and any other character stand for themselves
            }
        }
    }

    private int hex(int count, int at) {
        int code = 0;
        for (int i = 0; i < count; i++) {
            int d = pos < src.length() && isAsciiHex(src.charAt(pos)) ? Character.digit(src.charAt(pos), 16) : -1;
            if (d < 0) {
                throw new SyntaxError("invalid escape: expected " + count + " hex digits", at);
            }
            code = code * 16 + d;
            pos++;
        }
        return code;
    }

    private String describeChar(int at) {
        int cp = src.codePointAt(at);
        if (cp < 0x20 || cp == 0x7f || Character.isWhitespace(cp) || Character.isSpaceChar(cp)) {
            return String.format("U+%04X", cp);
        }
        return "'" + new String(Character.toChars(cp)) + "'";
    }

    static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 37) + "...";
    }

    private static boolean isAsciiHex(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    public static boolean isNameStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    public static boolean isNamePart(char c) {
        return isNameStart(c) || isDigit(c);
    }

    /** Whether {@code s} is a name: {@code [A-Za-z_][A-Za-z0-9_]*}. */
    public static boolean isName(String s) {
        if (s.isEmpty() || !isNameStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!isNamePart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
