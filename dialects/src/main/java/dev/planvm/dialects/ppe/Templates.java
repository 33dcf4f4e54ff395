package dev.planvm.dialects.ppe;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.instructions.expr.Expr;
import dev.planvm.instructions.expr.ExprParser;
import dev.planvm.instructions.expr.ExprSyntaxException;
import dev.planvm.instructions.expr.Exprs;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * PPE text to planvm templates: {@code {{expr}}} (and {@code {{{expr}}}}) becomes {@code ${expr}},
 * the Jinja words {@code and or not True False None} become {@code && || ! true false null}, a
 * {@code ?=expr} value is the expression itself, a {@code ~} prefix keeps the text as written and
 * {@code !}/{@code #} (format now) are dropped, since a template is rendered when its step runs.
 * Literal {@code ${} is escaped. What has no planvm meaning — Jinja statements, filters and tests,
 * {@code [[...]]} outside an assistant turn, logit bias {@code ((text:bias))}, message edits
 * {@code #:}/{@code #+} — is refused with its line. Every variable read is remembered
 * ({@link #reads()}), so front-matter values are assigned only when used.
 */
final class Templates {

    private final Problems problems;
    private final Set<String> reads = new LinkedHashSet<>();

    Templates(Problems problems) {
        this.problems = problems;
    }

    /** Root variables that templates and expressions have read so far. */
    Set<String> reads() {
        return reads;
    }

    /**
     * A text value ({@code $echo}, {@code $set}, a turn) as a planvm template string, or null when it
     * has a problem (reported at {@code pos}). {@code ?=expr} gives {@code ${expr}}.
     */
    String value(String raw, Pos pos) {
        if (raw.startsWith("?=")) {
            String expr = expression(raw.substring(2), pos);
            return expr == null ? null : "${" + expr + "}";
        }
        return text(raw, pos);
    }

    /** A message or text with {@code {{...}}} placeholders; {@code [[...]]} is refused here. */
    String text(String raw, Pos pos) {
        if (raw.startsWith("~")) {
            return literal(raw.substring(1));
        }
        if (raw.startsWith("#:") || raw.startsWith("#+")) {
            problems.error(
                    pos,
                    "message edits ('" + raw.substring(0, 2) + "' replaces or adds a message) are not supported:"
                            + " write the turn itself");
            return null;
        }
        String body = raw.startsWith("!") || raw.startsWith("#") ? raw.substring(1) : raw;
        int open = body.indexOf("[[");
        if (open >= 0 && body.indexOf("]]", open) > 0) {
            problems.error(pos, describeBracket(body.substring(open)) + " is supported only in an assistant turn");
            return null;
        }
        return interpolate(body, pos);
    }

    /** What a {@code [[...]]} starting {@code s} is, for messages. */
    static String describeBracket(String s) {
        if (s.startsWith("[[@")) {
            return "script invocation '[[@...]]'";
        }
        if (s.startsWith("[[/")) {
            return "regular expression replacement '[[/.../:VAR]]'";
        }
        return "AI replacement '[[VAR]]'";
    }

    /** Text with {@code {{...}}} translated; no prefix handling. Null on a problem. */
    String interpolate(String body, Pos pos) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            if (body.startsWith("{%", i) || body.startsWith("{#", i)) {
                problems.error(
                        pos,
                        "Jinja statements and comments ('" + body.substring(i, i + 2)
                                + " ... %}': if, for, set, macros) are not supported in templates: use $if, $for"
                                + " and $set steps");
                return null;
            }
            if (body.startsWith("((", i)
                    && body.indexOf("))", i) > 0
                    && body.substring(i, body.indexOf("))", i)).contains(":")) {
                problems.error(pos, "logit bias '((text:bias))' is not supported");
                return null;
            }
            if (body.startsWith("{{", i)) {
                boolean triple = body.startsWith("{{{", i);
                String close = triple ? "}}}" : "}}";
                int start = i + (triple ? 3 : 2);
                int end = body.indexOf(close, start);
                if (end < 0) {
                    problems.error(pos, "'" + (triple ? "{{{" : "{{") + "' is not closed by '" + close + "'");
                    return null;
                }
                String expr = expression(body.substring(start, end), pos);
                if (expr == null) {
                    return null;
                }
                if (out.length() > 0 && out.charAt(out.length() - 1) == '$') {
                    // "$${" would be a literal "${": write the dollar as an expression
                    out.setLength(out.length() - 1);
                    out.append("${'$'}");
                }
                out.append("${").append(expr).append('}');
                i = end + close.length();
            } else if (body.startsWith("${", i) && !body.startsWith("${{", i)) {
                out.append("$${");
                i += 2;
            } else {
                out.append(body.charAt(i));
                i++;
            }
        }
        return out.toString();
    }

    /** Text taken as written: only {@code ${} is escaped. */
    static String literal(String text) {
        return text.replace("${", "$${");
    }

    /**
     * A Jinja/JavaScript-style expression translated to a planvm expression and checked, or null
     * with the problem reported.
     */
    String expression(String source, Pos pos) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != c) {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, source.length());
                out.append(source, i, end);
                i = end;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < source.length()
                        && (Character.isLetterOrDigit(source.charAt(end)) || source.charAt(end) == '_')) {
                    end++;
                }
                String word = source.substring(i, end);
                boolean member = i > 0 && source.charAt(i - 1) == '.';
                String mapped = member ? word : jinjaWord(word, pos);
                if (mapped == null) {
                    return null;
                }
                out.append(mapped);
                i = end;
            } else if (c == '|' && !source.startsWith("||", i) && (i == 0 || source.charAt(i - 1) != '|')) {
                problems.error(
                        pos,
                        "Jinja filters ('| name') are not supported in '{{" + source.strip()
                                + "}}': use a function such as upper(x), join(xs, ', ')");
                return null;
            } else if (c == '~') {
                out.append('+');
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        String translated = out.toString().strip();
        try {
            Expr parsed = ExprParser.parse(translated);
            reads.addAll(Exprs.rootVariables(parsed));
            return translated;
        } catch (ExprSyntaxException e) {
            problems.error(pos, "the expression '" + source.strip() + "' cannot be read: " + e.getMessage());
            return null;
        } catch (RuntimeException | StackOverflowError e) {
            problems.error(pos, "the expression '" + source.strip() + "' cannot be read");
            return null;
        }
    }

    private String jinjaWord(String word, Pos pos) {
        return switch (word) {
            case "and" -> "&&";
            case "or" -> "||";
            case "not" -> "!";
            case "True" -> "true";
            case "False" -> "false";
            case "None" -> "null";
            case "in", "is", "if", "else" -> {
                problems.error(
                        pos,
                        "the Jinja operator '" + word + "' is not supported in expressions"
                                + ("in".equals(word) ? ": use contains(a, b)" : ""));
                yield null;
            }
            default -> word;
        };
    }
}
