package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.expr.Builtins;
import java.util.List;
import java.util.Set;

/**
 * Writes resolved, call-free expressions in planvm's plan language (DESIGN P5, P6): as a JSON value
 * template (objects and arrays stay JSON, constants stay constants, everything else becomes a
 * {@code "${...}"} string, which keeps its JSON type when it is the whole string) and as
 * expression text.
 *
 * <p>Text is escaped for planvm: <code>${</code> in literal text is written <code>$${</code>. A dialect
 * template ({@code `Hi ${name}`}) becomes an interpolated string; inside a larger expression it
 * becomes {@code 'Hi ' + name} (planvm's {@code +} renders values exactly as interpolation does).
 * Date/time helpers are written as they were in the source; a weekday or unit name becomes its text
 * ({@code Thursday} is {@code 'Thursday'}, as seed 001's context binds it), and a plan variable whose
 * name is such a word is written in parentheses, {@code (Thursday)}, so that planvm reads the
 * variable where a bare word would be the word ({@code next(Thursday)}).
 */
final class Lowering {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> PLANVM_WORDS = Set.of("true", "false", "null");

    private Lowering() {}

    /** {@code ast} as a JSON value whose strings may hold {@code ${...}} references. */
    static JsonNode template(Ast ast) {
        if (ast instanceof Ast.Literal l) {
            return l.value().isTextual() ? TextNode.valueOf(escape(l.value().textValue())) : l.value();
        }
        if (ast instanceof Ast.ArrayLit a) {
            ArrayNode array = JSON.arrayNode();
            a.elements().forEach(e -> array.add(template(e)));
            return array;
        }
        if (ast instanceof Ast.ObjectLit o) {
            ObjectNode object = JSON.objectNode();
            o.properties().forEach(p -> object.set(p.key(), template(p.value())));
            return object;
        }
        if (ast instanceof Ast.Template t) {
            return TextNode.valueOf(interpolated(t));
        }
        return TextNode.valueOf("${" + expr(ast) + "}");
    }

    /** A dialect template as one planvm string with references. */
    private static String interpolated(Ast.Template t) {
        List<Ast> parts = t.parts();
        if (parts.size() == 1 && !isText(parts.get(0))) {
            return "${str(" + expr(parts.get(0)) + ")}"; // `${x}` is text, whatever x is
        }
        StringBuilder sb = new StringBuilder();
        for (Ast part : parts) {
            if (isText(part)) {
                sb.append(escape(((Ast.Literal) part).value().textValue()));
            } else {
                if (sb.length() > 0 && sb.charAt(sb.length() - 1) == '$') {
                    sb.setLength(sb.length() - 1);
                    sb.append("${'$'}"); // "$${" would be read as a literal "${"
                }
                sb.append("${").append(expr(part)).append('}');
            }
        }
        return sb.toString();
    }

    /** {@code ast} as planvm expression text. */
    static String expr(Ast ast) {
        if (ast instanceof Ast.Literal l) {
            JsonNode v = l.value();
            return v.isTextual() ? quote(v.textValue()) : v.isNull() ? "null" : v.asText();
        }
        if (ast instanceof Ast.Var v) {
            return isDateWord(v.variable()) ? "(" + v.variable() + ")" : v.variable();
        }
        if (ast instanceof Ast.DateName d) {
            return isDateWord(d.name()) ? quote(d.name()) : d.name();
        }
        if (ast instanceof Ast.ArrayLit a) {
            return "[" + list(a.elements()) + "]";
        }
        if (ast instanceof Ast.ObjectLit o) {
            StringBuilder sb = new StringBuilder("{");
            for (Ast.Property p : o.properties()) {
                if (sb.length() > 1) {
                    sb.append(", ");
                }
                sb.append(isPlainName(p.key()) ? p.key() : quote(p.key()))
                        .append(": ")
                        .append(expr(p.value()));
            }
            return sb.append('}').toString();
        }
        if (ast instanceof Ast.Template t) {
            StringBuilder sb = new StringBuilder();
            if (!isText(t.parts().get(0))) {
                sb.append("''");
            }
            for (Ast part : t.parts()) {
                if (sb.length() > 0) {
                    sb.append(" + ");
                }
                sb.append(operand(part));
            }
            return sb.toString();
        }
        if (ast instanceof Ast.Member m) {
            String target = operand(m.target());
            return isPlainName(m.name()) ? target + "." + m.name() : target + "[" + quote(m.name()) + "]";
        }
        if (ast instanceof Ast.Index i) {
            return operand(i.target()) + "[" + expr(i.index()) + "]";
        }
        if (ast instanceof Ast.BuiltinCall b) {
            return b.function() + "(" + list(b.args()) + ")";
        }
        if (ast instanceof Ast.MethodCall m) {
            return operand(m.target()) + "." + m.method() + "(" + list(m.args()) + ")";
        }
        if (ast instanceof Ast.Unwrap u) {
            return unwrap(expr(u.inner()));
        }
        throw new IllegalStateException("not lowered: " + ast);
    }

    /**
     * The value of {@code v}, or its only element when it is an array of exactly one (seed 000's
     * second shortcut), in today's expression language, which has no type test and no conditional:
     * {@code str(v) != v} holds for everything but text, and the compact JSON of a non-text value
     * starts with {@code [} exactly when it is an array (it then sorts between {@code [} and
     * {@code \}); {@code &&} and {@code ||} return the deciding operand, and a one-element array
     * literal is always truthy, so the element may be anything, even false or null.
     */
    static String unwrap(String v) {
        String s = "str(" + v + ")";
        return "(" + s + " != " + v + " && " + s + " >= '[' && " + s + " < '\\\\' && len(" + v + ") == 1 && [" + v
                + "[0]] || [" + v + "])[0]";
    }

    /** An operand of '.', '[...]' or '+': parenthesised unless it binds at least as tightly. */
    private static String operand(Ast ast) {
        boolean loose = ast instanceof Ast.Template
                || (ast instanceof Ast.Literal l && l.value().isNumber());
        return loose ? "(" + expr(ast) + ")" : expr(ast);
    }

    private static String list(List<Ast> items) {
        StringBuilder sb = new StringBuilder();
        for (Ast item : items) {
            if (sb.length() > 0) {
                sb.append(", ");
            }
            sb.append(expr(item));
        }
        return sb.toString();
    }

    /** A weekday or unit name (not a helper such as {@code today}, which is a value). */
    private static boolean isDateWord(String name) {
        return Builtins.DATE_WORDS.contains(name) && !Builtins.CONSTANTS.contains(name);
    }

    private static boolean isText(Ast ast) {
        return ast instanceof Ast.Literal l && l.value().isTextual();
    }

    private static boolean isPlainName(String s) {
        return Lexer.isName(s) && !PLANVM_WORDS.contains(s);
    }

    /** Literal text for a planvm string: <code>${</code> is written <code>$${</code>. */
    static String escape(String text) {
        return text.replace("${", "$${");
    }

    /** {@code s} as a single-quoted planvm string literal. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'' -> sb.append("\\'");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('\'').toString();
    }
}
