package dev.planvm.instructions.expr;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A string that may contain {@code ${expr}} references.
 *
 * <p><code>$${</code> stands for a literal <code>${</code>; a {@code $} not followed by <code>{</code> is
 * literal text. A reference ends at the {@code }} that follows its complete expression, found by
 * scanning with the expression lexer, so braces and quotes inside the expression are handled.
 *
 * @param source the original string
 * @param parts the text and reference parts in order; adjacent texts are merged, so no two
 *     {@link Text} parts are adjacent and no text is empty
 */
public record Template(String source, List<Part> parts) {

    /** One piece of a template. */
    public sealed interface Part permits Text, Ref {}

    /** Literal text (escapes already resolved: <code>$${</code> contributes <code>${</code>). */
    public record Text(String text) implements Part {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * A reference.
     *
     * @param expr the parsed expression
     * @param source the raw text between <code>${</code> and {@code }}
     * @param offset index of the {@code $} in {@link Template#source()}
     */
    public record Ref(Expr expr, String source, int offset) implements Part {
        public Ref {
            Objects.requireNonNull(expr, "expr");
            Objects.requireNonNull(source, "source");
        }
    }

    public Template {
        Objects.requireNonNull(source, "source");
        parts = List.copyOf(parts);
    }

    /**
     * Parses {@code s}.
     *
     * @throws ExprSyntaxException with the offset into {@code s} of the problem
     */
    public static Template parse(String s) {
        List<Part> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '$' && startsWith(s, i + 1, "${")) {
                text.append("${");
                i += 3;
            } else if (c == '$' && startsWith(s, i + 1, "{")) {
                if (text.length() > 0) {
                    parts.add(new Text(text.toString()));
                    text.setLength(0);
                }
                int close = parseRef(s, i, parts);
                i = close + 1;
            } else {
                text.append(c);
                i++;
            }
        }
        if (text.length() > 0) {
            parts.add(new Text(text.toString()));
        }
        return new Template(s, parts);
    }

    /** Parses the reference whose {@code $} is at {@code dollar}; returns the index of its '}'. */
    private static int parseRef(String s, int dollar, List<Part> parts) {
        Parser parser = new Parser(s, dollar + 2, dollar);
        Token first = parser.current();
        if (first.type() == TokenType.RBRACE) {
            throw new ExprSyntaxException("empty reference '${}'", dollar);
        }
        if (first.type() == TokenType.EOF) {
            throw Parser.unterminatedReference(dollar);
        }
        Expr expr = parser.expression();
        Token end = parser.current();
        if (end.type() != TokenType.RBRACE) {
            throw parser.errorAt(end, "expected '}' to end the reference but found " + end.describe());
        }
        parts.add(new Ref(expr, s.substring(dollar + 2, end.pos()), dollar));
        return end.pos();
    }

    private static boolean startsWith(String s, int at, String prefix) {
        return s.startsWith(prefix, at);
    }

    /** Whether the whole string is exactly one {@code ${expr}} with no other text at all. */
    public boolean isSingleRef() {
        return parts.size() == 1 && parts.get(0) instanceof Ref;
    }

    /** Whether the template contains at least one reference. */
    public boolean hasRefs() {
        for (Part p : parts) {
            if (p instanceof Ref) {
                return true;
            }
        }
        return false;
    }

    /** Root variable names referenced, in order of first appearance. */
    public Set<String> variables() {
        Set<String> names = new LinkedHashSet<>();
        for (Part p : parts) {
            if (p instanceof Ref) {
                names.addAll(Exprs.rootVariables(((Ref) p).expr()));
            }
        }
        return names;
    }
}
