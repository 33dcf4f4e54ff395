package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Token.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for the expressions both dialects share (seeds 000 and 001): number,
 * string, {@code true}/{@code false}/{@code null} literals, array literals, object literals (with
 * the {@code {a, b}} shorthand), names, {@code .name}, {@code [index]} and calls. The JavaScript
 * subset adds template literals and {@code undefined}. There are no operators: one found is
 * reported by name. Nesting (and the length of {@code a.b.c...} chains) is bounded, so no later
 * walk of the tree can overflow the stack.
 */
public final class ExprParser {

    private final Lexer lexer;
    private final Locator locator;
    private final boolean js;
    private final int maxNesting;
    private Token current;
    private Token previous;
    private int depth;

    /**
     * @param src        the text
     * @param start      where to start scanning
     * @param locator    maps offsets of {@code src} to file positions
     * @param js         JavaScript subset: comments, template literals, {@code undefined}
     * @param maxNesting the deepest nesting allowed
     */
    public ExprParser(String src, int start, Locator locator, boolean js, int maxNesting) {
        this.lexer = new Lexer(src, start, js);
        this.locator = locator;
        this.js = js;
        this.maxNesting = maxNesting;
        this.current = lexer.next();
    }

    /** The lookahead token. */
    public Token current() {
        return current;
    }

    /** The token consumed last, or null. */
    public Token previous() {
        return previous;
    }

    public Token advance() {
        previous = current;
        current = lexer.next();
        return previous;
    }

    public Pos pos(Token t) {
        return locator.at(t.offset());
    }

    public Pos pos(int offset) {
        return locator.at(offset);
    }

    /** The scanner (for error recovery: skipping a character it cannot scan). */
    public Lexer lexer() {
        return lexer;
    }

    /** Replaces the lookahead after the scanner was moved by hand. */
    public void resync() {
        current = lexer.next();
    }

    public Token expect(Kind kind, String what) {
        if (!current.is(kind)) {
            throw new SyntaxError("expected " + what + " but found " + current.describe(), current.offset());
        }
        return advance();
    }

    /** Parses one expression; stops before the first token that cannot continue it. */
    public Ast expression() {
        enter(current);
        Ast e = postfix();
        depth--;
        if (current.is(Kind.OPERATOR) || current.is(Kind.PLUS) || current.is(Kind.MINUS)) {
            throw new SyntaxError(
                    "the operator '" + current.text() + "' is not part of the plan language"
                            + " (it has literals, names, '.', '[...]' and calls)",
                    current.offset());
        }
        return e;
    }

    private void enter(Token at) {
        if (++depth > maxNesting) {
            throw new SyntaxError(
                    "the expression is nested too deeply (more than " + maxNesting + " levels)", at.offset());
        }
    }

    private Ast postfix() {
        Ast e = primary();
        int saved = depth;
        try {
            while (true) {
                if (current.is(Kind.DOT)) {
                    Token dot = advance();
                    enter(dot);
                    if (!current.is(Kind.IDENT)) {
                        throw new SyntaxError(
                                "expected a field name after '.' but found " + current.describe(), current.offset());
                    }
                    Token name = advance();
                    e = new Ast.Member(e, name.text(), pos(name));
                } else if (current.is(Kind.LBRACKET)) {
                    Token open = advance();
                    enter(open);
                    Ast index = expression();
                    expect(Kind.RBRACKET, "']'");
                    e = new Ast.Index(e, index, pos(open));
                } else if (current.is(Kind.LPAREN)) {
                    Token open = advance();
                    enter(open);
                    List<Ast> args = list(Kind.RPAREN, "')'");
                    e = new Ast.Call(e, args, e.pos());
                } else {
                    return e;
                }
            }
        } finally {
            depth = saved;
        }
    }

    private Ast primary() {
        Token t = current;
        switch (t.kind()) {
            case NUMBER, STRING -> {
                advance();
                return new Ast.Literal(t.value(), pos(t));
            }
            case PLUS, MINUS -> {
                advance();
                if (!current.is(Kind.NUMBER) || current.offset() != t.offset() + 1) {
                    throw new SyntaxError("'" + t.text() + "' may only stand right before a number", t.offset());
                }
                Token number = advance();
                JsonNode value = t.is(Kind.MINUS) ? negate(number.value()) : number.value();
                return new Ast.Literal(value, pos(t));
            }
            case BACKTICK -> {
                if (!js) {
                    throw new SyntaxError("template literals (`...`) are not part of this dialect", t.offset());
                }
                return template(t);
            }
            case IDENT -> {
                advance();
                if (js && arrowNext()) {
                    return arrow(List.of(new Ast.Name(t.text(), pos(t))), pos(t));
                }
                return switch (t.text()) {
                    case "true" -> new Ast.Literal(BooleanNode.TRUE, pos(t));
                    case "false" -> new Ast.Literal(BooleanNode.FALSE, pos(t));
                    case "null" -> new Ast.Literal(NullNode.getInstance(), pos(t));
                    case "undefined" ->
                        js ? new Ast.Literal(NullNode.getInstance(), pos(t)) : new Ast.Name(t.text(), pos(t));
                    default -> new Ast.Name(t.text(), pos(t));
                };
            }
            case LBRACKET -> {
                advance();
                enter(t);
                List<Ast> elements = list(Kind.RBRACKET, "']'");
                depth--;
                return new Ast.ArrayLit(elements, pos(t));
            }
            case LBRACE -> {
                return object();
            }
            case LPAREN -> {
                advance();
                enter(t);
                Ast inner = expression();
                if (js && current.is(Kind.COMMA)) { // (x, i) => ...: only a function's parameters
                    Token comma = advance();
                    List<Ast> params = new ArrayList<>(List.of(inner));
                    params.addAll(list(Kind.RPAREN, "')'"));
                    depth--;
                    if (!arrowNext()) {
                        throw new SyntaxError(
                                "a list in parentheses is only the parameters of a function: (x, i) => tool({...})",
                                comma.offset());
                    }
                    return arrow(params, params.get(0).pos());
                }
                expect(Kind.RPAREN, "')'");
                depth--;
                if (js && arrowNext()) {
                    return arrow(List.of(inner), inner.pos());
                }
                return inner;
            }
            case EOF -> throw new SyntaxError("expected an expression but the text ended", t.offset());
            default -> throw new SyntaxError("expected an expression but found " + t.describe(), t.offset());
        }
    }

    /** Comma-separated expressions up to {@code close} (a trailing comma is fine); consumes {@code close}. */
    private List<Ast> list(Kind close, String closeText) {
        List<Ast> items = new ArrayList<>();
        while (!current.is(close)) {
            if (current.is(Kind.COMMA)) {
                throw new SyntaxError("expected a value before ','", current.offset());
            }
            items.add(expression());
            if (!current.is(Kind.COMMA)) {
                break;
            }
            advance();
        }
        expect(close, "',' or " + closeText);
        return items;
    }

    /** Whether the current token is {@code =>}. */
    private boolean arrowNext() {
        return current.is(Kind.OPERATOR) && current.text().equals("=>");
    }

    /** {@code params => body}, the arrow being the current token (JavaScript subset only). */
    private Ast arrow(List<Ast> params, Pos pos) {
        Token arrow = advance();
        enter(arrow);
        Ast body = expression();
        depth--;
        return new Ast.Arrow(params, body, pos);
    }

    private Ast object() {
        Token open = advance();
        enter(open);
        List<Ast.Property> properties = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!current.is(Kind.RBRACE)) {
            Token key = current;
            String name;
            if (key.is(Kind.IDENT)) {
                name = key.text();
            } else if (key.is(Kind.STRING)) {
                name = key.value().textValue();
            } else if (key.is(Kind.NUMBER)) {
                name = key.value().asText();
            } else {
                throw new SyntaxError("expected a property name but found " + key.describe(), key.offset());
            }
            advance();
            if (!seen.add(name)) {
                throw new SyntaxError("duplicate property '" + name + "' in object", key.offset());
            }
            Ast value;
            if (current.is(Kind.COLON)) {
                advance();
                value = expression();
            } else if (key.is(Kind.IDENT) && (current.is(Kind.COMMA) || current.is(Kind.RBRACE))) {
                value = new Ast.Name(name, pos(key)); // {a, b} is {a: a, b: b}
            } else {
                throw new SyntaxError(
                        "expected ':' after the property name '" + name + "' but found " + current.describe(),
                        current.offset());
            }
            properties.add(new Ast.Property(name, value, pos(key)));
            if (!current.is(Kind.COMMA)) {
                break;
            }
            advance();
        }
        expect(Kind.RBRACE, "',' or '}'");
        depth--;
        return new Ast.ObjectLit(properties, pos(open));
    }

    /** A template literal whose opening backtick is the lookahead {@code open}. */
    private Ast template(Token open) {
        // The lookahead after the backtick was scanned already only if we advanced; we did not.
        enter(open);
        List<Ast> parts = new ArrayList<>();
        int chunkStart = lexer.position();
        Lexer.TemplateChunk chunk = lexer.templateChunk(open.offset());
        while (true) {
            if (!chunk.text().isEmpty()) {
                parts.add(new Ast.Literal(TextNode.valueOf(chunk.text()), pos(chunkStart)));
            }
            if (!chunk.endsWithSubstitution()) {
                break;
            }
            current = lexer.next();
            if (current.is(Kind.RBRACE)) {
                throw new SyntaxError("empty substitution '${}' in a template literal", current.offset());
            }
            parts.add(expression());
            if (!current.is(Kind.RBRACE)) {
                throw new SyntaxError(
                        "expected '}' to end the substitution but found " + current.describe(), current.offset());
            }
            chunkStart = lexer.position();
            chunk = lexer.templateChunk(open.offset());
        }
        depth--;
        previous = open;
        current = lexer.next();
        return new Ast.Template(parts, pos(open));
    }

    private static JsonNode negate(JsonNode n) {
        if (n.isInt()) {
            return n.intValue() == 0 ? n : IntNode.valueOf(-n.intValue());
        }
        if (n.isLong()) {
            long v = -n.longValue();
            return v == (int) v ? IntNode.valueOf((int) v) : LongNode.valueOf(v);
        }
        return n.doubleValue() == 0 ? IntNode.valueOf(0) : DoubleNode.valueOf(-n.doubleValue());
    }
}
