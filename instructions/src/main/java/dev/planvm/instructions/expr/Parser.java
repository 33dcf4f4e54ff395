package dev.planvm.instructions.expr;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser over the {@link Lexer}'s token stream, one token of lookahead.
 *
 * <p>Precedence, lowest first: {@code ||}, {@code &&}, {@code == !=}, {@code < <= > >=},
 * {@code + -}, {@code * / %}, unary {@code ! -}, postfix {@code .name [expr] .method(args)}. Nesting of both the
 * parser's recursion and the resulting tree is limited to {@link #MAX_DEPTH}.
 */
final class Parser {

    /** Maximum nesting of parentheses/brackets/unary operators and maximum height of the tree. */
    static final int MAX_DEPTH = 200;

    private static final String TOO_DEEP = "expression nested too deeply";

    private final Lexer lexer;
    private final int refStart;
    private final Map<Expr, Integer> heights = new IdentityHashMap<>();
    private Token current;
    private int depth;

    /**
     * @param src the whole string
     * @param start offset where scanning begins
     * @param refStart offset of the {@code $} of the enclosing {@code ${}, or -1 for a standalone
     *     expression; inside a reference, reaching the end of the text is reported as an
     *     unterminated reference
     */
    Parser(String src, int start, int refStart) {
        this.lexer = new Lexer(src, start);
        this.refStart = refStart;
        this.current = lexer.next();
    }

    /** The lookahead token (not yet consumed). */
    Token current() {
        return current;
    }

    /** Parses one complete expression; stops before the first token that cannot continue it. */
    Expr expression() {
        if (++depth > MAX_DEPTH) {
            throw new ExprSyntaxException(TOO_DEEP, current.pos());
        }
        Expr e = binary(1);
        depth--;
        return e;
    }

    /** Builds an error for the lookahead token; at the end of a reference, reports it unterminated. */
    ExprSyntaxException errorAt(Token t, String message) {
        if (t.type() == TokenType.EOF && refStart >= 0) {
            return unterminatedReference(refStart);
        }
        return new ExprSyntaxException(message, t.pos());
    }

    static ExprSyntaxException unterminatedReference(int refStart) {
        return new ExprSyntaxException("unterminated reference: missing '}' to close '${'", refStart);
    }

    private Token advance() {
        Token t = current;
        current = lexer.next();
        return t;
    }

    private boolean check(TokenType type) {
        return current.type() == type;
    }

    private Token expect(TokenType type, String expectation) {
        if (!check(type)) {
            throw errorAt(current, "expected " + expectation + " but found " + current.describe());
        }
        return advance();
    }

    private Expr binary(int level) {
        if (level > 6) {
            return unary();
        }
        Expr left = binary(level + 1);
        BinaryOp op;
        while ((op = binaryOp(current.type(), level)) != null) {
            Token opToken = advance();
            Expr right = binary(level + 1);
            left = node(new Expr.Binary(op, left, right, opToken.pos()));
        }
        return left;
    }

    private static BinaryOp binaryOp(TokenType type, int level) {
        BinaryOp op;
        switch (type) {
            case OR_OR:
                op = BinaryOp.OR;
                break;
            case AND_AND:
                op = BinaryOp.AND;
                break;
            case EQ_EQ:
                op = BinaryOp.EQ;
                break;
            case BANG_EQ:
                op = BinaryOp.NE;
                break;
            case LT:
                op = BinaryOp.LT;
                break;
            case LE:
                op = BinaryOp.LE;
                break;
            case GT:
                op = BinaryOp.GT;
                break;
            case GE:
                op = BinaryOp.GE;
                break;
            case PLUS:
                op = BinaryOp.ADD;
                break;
            case MINUS:
                op = BinaryOp.SUB;
                break;
            case STAR:
                op = BinaryOp.MUL;
                break;
            case SLASH:
                op = BinaryOp.DIV;
                break;
            case PERCENT:
                op = BinaryOp.MOD;
                break;
            default:
                return null;
        }
        return op.precedence() == level ? op : null;
    }

    private Expr unary() {
        UnaryOp op;
        if (check(TokenType.BANG)) {
            op = UnaryOp.NOT;
        } else if (check(TokenType.MINUS)) {
            op = UnaryOp.NEGATE;
        } else {
            return postfix();
        }
        Token opToken = advance();
        if (++depth > MAX_DEPTH) {
            throw new ExprSyntaxException(TOO_DEEP, opToken.pos());
        }
        Expr operand = unary();
        depth--;
        return node(new Expr.Unary(op, operand, opToken.pos()));
    }

    private Expr postfix() {
        Expr e = primary();
        while (true) {
            if (check(TokenType.DOT)) {
                advance();
                if (!current.isName()) {
                    throw errorAt(current, "expected a field name after '.' but found " + current.describe());
                }
                Token name = advance();
                e = check(TokenType.LPAREN) ? method(e, name) : node(new Expr.Member(e, name.text(), name.pos()));
            } else if (check(TokenType.LBRACKET)) {
                Token open = advance();
                Expr index = expression();
                expect(TokenType.RBRACKET, "']'");
                e = node(new Expr.Index(e, index, open.pos()));
            } else if (check(TokenType.LPAREN)) {
                throw new ExprSyntaxException(
                        "cannot call '" + Exprs.render(e) + "': only builtin functions can be called, "
                                + "such as len(x), and the date/time helpers' methods (" + Builtins.methodList() + ")",
                        current.pos());
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = current;
        switch (t.type()) {
            case NUMBER:
            case STRING:
            case TRUE:
            case FALSE:
            case NULL:
                advance();
                return node(new Expr.Literal(t.value(), t.pos()));
            case IDENT:
                advance();
                if (check(TokenType.LPAREN)) {
                    return call(t);
                }
                return node(new Expr.Variable(t.text(), t.pos()));
            case LPAREN:
                advance();
                Expr inner = expression();
                expect(TokenType.RPAREN, "')'");
                return inner;
            case LBRACKET:
                return array();
            case LBRACE:
                return object();
            case EOF:
                throw errorAt(t, "unexpected end of expression");
            default:
                throw errorAt(t, "unexpected " + t.describe());
        }
    }

    private Expr call(Token name) {
        Builtins.Arity arity = Builtins.arity(name.text()).orElse(null);
        if (arity == null) {
            throw new ExprSyntaxException(
                    "unknown function '" + name.text() + "' (known: " + Builtins.knownList() + ")", name.pos());
        }
        List<Expr> args = arguments(name.text());
        if (!arity.accepts(args.size())) {
            throw new ExprSyntaxException(
                    name.text() + "() takes " + arity.describe() + ", got " + args.size(), name.pos());
        }
        return node(new Expr.Call(name.text(), args, name.pos()));
    }

    /** {@code target.name(...)}: a method of date/time values; the lookahead is the {@code (}. */
    private Expr method(Expr target, Token name) {
        Builtins.Arity arity = Builtins.METHODS.get(name.text());
        if (arity == null) {
            throw new ExprSyntaxException(
                    "there is no method '" + name.text() + "' (values have no methods; the date/time" + " helpers have "
                            + Builtins.methodList() + ")",
                    name.pos());
        }
        List<Expr> args = arguments(name.text());
        if (!arity.accepts(args.size())) {
            throw new ExprSyntaxException(
                    name.text() + "() takes " + arity.describe() + ", got " + args.size(), name.pos());
        }
        return node(new Expr.Method(target, name.text(), args, name.pos()));
    }

    /**
     * The parenthesised arguments of {@code function}; the lookahead is the {@code (}. A bare word the
     * date/time helpers take in that position ({@code next(Thursday)}, {@code plus(2, days)}) is
     * that word as text, not a variable; {@code (day)} in parentheses is the variable.
     */
    private List<Expr> arguments(String function) {
        advance(); // (
        List<Expr> args = new ArrayList<>();
        if (!check(TokenType.RPAREN)) {
            args.add(argument(function, 0));
            while (check(TokenType.COMMA)) {
                advance();
                args.add(argument(function, args.size()));
            }
        }
        expect(TokenType.RPAREN, "',' or ')'");
        return args;
    }

    private Expr argument(String function, int index) {
        int start = current.pos();
        Expr arg = expression();
        if (arg instanceof Expr.Variable v && v.pos() == start && Builtins.takesWord(function, index, v.name())) {
            return node(new Expr.Literal(com.fasterxml.jackson.databind.node.TextNode.valueOf(v.name()), v.pos()));
        }
        return arg;
    }

    private Expr array() {
        Token open = advance();
        List<Expr> elements = new ArrayList<>();
        while (!check(TokenType.RBRACKET)) {
            elements.add(expression());
            if (!check(TokenType.COMMA)) {
                break;
            }
            advance();
        }
        expect(TokenType.RBRACKET, "',' or ']'");
        return node(new Expr.ArrayLiteral(elements, open.pos()));
    }

    private Expr object() {
        Token open = advance();
        List<Expr.Field> fields = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        while (!check(TokenType.RBRACE)) {
            Token keyToken = current;
            String key;
            if (keyToken.isName()) {
                key = keyToken.text();
            } else if (keyToken.type() == TokenType.STRING) {
                key = keyToken.value().textValue();
            } else {
                throw errorAt(keyToken, "expected a field name but found " + keyToken.describe());
            }
            advance();
            if (!seen.add(key)) {
                throw new ExprSyntaxException("duplicate field '" + key + "' in object", keyToken.pos());
            }
            expect(TokenType.COLON, "':' after field name '" + key + "'");
            fields.add(new Expr.Field(key, expression()));
            if (!check(TokenType.COMMA)) {
                break;
            }
            advance();
        }
        expect(TokenType.RBRACE, "',' or '}'");
        return node(new Expr.ObjectLiteral(fields, open.pos()));
    }

    /** Records the height of a new node and rejects trees deeper than {@link #MAX_DEPTH}. */
    private Expr node(Expr e) {
        int height = 1;
        for (Expr child : Exprs.children(e)) {
            height = Math.max(height, heights.get(child) + 1);
        }
        if (height > MAX_DEPTH) {
            throw new ExprSyntaxException(TOO_DEEP, e.pos());
        }
        heights.put(e, height);
        return e;
    }
}
