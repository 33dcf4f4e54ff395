package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Utilities over {@link Expr} trees. */
public final class Exprs {

    private static final int UNARY_PRECEDENCE = 7;
    private static final int POSTFIX_PRECEDENCE = 8;

    private Exprs() {}

    /**
     * Names of the {@link Expr.Variable} nodes in {@code e}, in source order without duplicates.
     * Member names and function names are not variables.
     */
    public static Set<String> rootVariables(Expr e) {
        Set<String> names = new LinkedHashSet<>();
        Deque<Expr> stack = new ArrayDeque<>();
        stack.push(e);
        while (!stack.isEmpty()) {
            Expr next = stack.pop();
            if (next instanceof Expr.Variable variable) {
                names.add(variable.name());
            }
            List<Expr> children = children(next);
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.push(children.get(i));
            }
        }
        return names;
    }

    /** The direct sub-expressions of {@code e}, in source order. */
    static List<Expr> children(Expr e) {
        if (e instanceof Expr.Member member) {
            return List.of(member.target());
        } else if (e instanceof Expr.Index i) {
            return List.of(i.target(), i.index());
        } else if (e instanceof Expr.Unary unary) {
            return List.of(unary.operand());
        } else if (e instanceof Expr.Binary b) {
            return List.of(b.left(), b.right());
        } else if (e instanceof Expr.Call call) {
            return call.args();
        } else if (e instanceof Expr.Method method) {
            List<Expr> all = new ArrayList<>(method.args().size() + 1);
            all.add(method.target());
            all.addAll(method.args());
            return all;
        } else if (e instanceof Expr.ArrayLiteral arrayLiteral) {
            return arrayLiteral.elements();
        } else if (e instanceof Expr.ObjectLiteral objectLiteral) {
            List<Expr> values = new ArrayList<>();
            for (Expr.Field f : objectLiteral.fields()) {
                values.add(f.value());
            }
            return values;
        }
        return List.of();
    }

    /**
     * Canonical source text of {@code e}, for messages: single spaces around binary operators,
     * single-quoted strings, and parentheses only where precedence or associativity requires them
     * (so parsing the result gives back the same tree, apart from positions).
     */
    public static String render(Expr e) {
        StringBuilder sb = new StringBuilder();
        render(e, sb);
        return sb.toString();
    }

    private static void render(Expr e, StringBuilder sb) {
        if (e instanceof Expr.Literal literal) {
            renderLiteral(literal.value(), sb);
        } else if (e instanceof Expr.Variable variable) {
            sb.append(variable.name());
        } else if (e instanceof Expr.Member m) {
            Expr target = m.target();
            boolean numberTarget =
                    target instanceof Expr.Literal literal && literal.value().isNumber();
            renderOperand(target, numberTarget || precedence(target) < POSTFIX_PRECEDENCE, sb);
            sb.append('.').append(m.name());
        } else if (e instanceof Expr.Index i) {
            renderOperand(i.target(), precedence(i.target()) < POSTFIX_PRECEDENCE, sb);
            sb.append('[');
            render(i.index(), sb);
            sb.append(']');
        } else if (e instanceof Expr.Unary u) {
            sb.append(u.op().symbol());
            renderOperand(u.operand(), precedence(u.operand()) < UNARY_PRECEDENCE, sb);
        } else if (e instanceof Expr.Binary b) {
            int p = b.op().precedence();
            renderOperand(b.left(), precedence(b.left()) < p, sb);
            sb.append(' ').append(b.op().symbol()).append(' ');
            renderOperand(b.right(), precedence(b.right()) <= p, sb);
        } else if (e instanceof Expr.Call c) {
            sb.append(c.function());
            renderList(c.args(), "(", ")", sb);
        } else if (e instanceof Expr.Method m) {
            Expr target = m.target();
            boolean numberTarget =
                    target instanceof Expr.Literal literal && literal.value().isNumber();
            renderOperand(target, numberTarget || precedence(target) < POSTFIX_PRECEDENCE, sb);
            sb.append('.').append(m.name());
            renderList(m.args(), "(", ")", sb);
        } else if (e instanceof Expr.ArrayLiteral arrayLiteral) {
            renderList(arrayLiteral.elements(), "[", "]", sb);
        } else if (e instanceof Expr.ObjectLiteral objectLiteral) {
            sb.append('{');
            String sep = "";
            for (Expr.Field f : objectLiteral.fields()) {
                sb.append(sep);
                sep = ", ";
                sb.append(isIdentifier(f.key()) ? f.key() : quote(f.key())).append(": ");
                render(f.value(), sb);
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("unknown node " + e);
        }
    }

    private static void renderOperand(Expr e, boolean parens, StringBuilder sb) {
        if (parens) {
            sb.append('(');
            render(e, sb);
            sb.append(')');
        } else {
            render(e, sb);
        }
    }

    private static void renderList(List<Expr> items, String open, String close, StringBuilder sb) {
        sb.append(open);
        String sep = "";
        for (Expr item : items) {
            sb.append(sep);
            sep = ", ";
            render(item, sb);
        }
        sb.append(close);
    }

    private static void renderLiteral(JsonNode value, StringBuilder sb) {
        if (value.isTextual()) {
            sb.append(quote(value.textValue()));
        } else if (value.isNumber() || value.isBoolean() || value.isNull()) {
            sb.append(value.asText());
        } else {
            sb.append(value.toString());
        }
    }

    private static int precedence(Expr e) {
        if (e instanceof Expr.Binary binary) {
            return binary.op().precedence();
        }
        if (e instanceof Expr.Unary) {
            return UNARY_PRECEDENCE;
        }
        if (e instanceof Expr.Literal literal) {
            JsonNode v = literal.value();
            if (v.isNumber() && v.asText().startsWith("-")) {
                return UNARY_PRECEDENCE;
            }
        }
        return POSTFIX_PRECEDENCE;
    }

    private static boolean isIdentifier(String s) {
        if (s.isEmpty() || !Lexer.isIdentStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!Lexer.isIdentPart(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code s} as a single-quoted string literal of the expression language. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'':
                    sb.append("\\'");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('\'').toString();
    }
}
