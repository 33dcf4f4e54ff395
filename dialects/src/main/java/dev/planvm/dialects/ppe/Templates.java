package dev.planvm.dialects.ppe;

import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.instructions.expr.Expr;
import dev.planvm.instructions.expr.ExprParser;
import dev.planvm.instructions.expr.ExprSyntaxException;
import dev.planvm.instructions.expr.Exprs;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
            if (body.startsWith("{#", i)) {
                int end = body.indexOf("#}", i + 2);
                if (end < 0) {
                    problems.error(pos, "the Jinja comment '{#' is not closed by '#}'");
                    return null;
                }
                i = end + 2;
                continue;
            }
            if (body.startsWith("{%", i)) {
                Block block = ifBlock(body, i, pos);
                if (block == null) {
                    return null;
                }
                if (out.length() > 0 && out.charAt(out.length() - 1) == '$') {
                    out.setLength(out.length() - 1);
                    out.append("${'$'}");
                }
                out.append("${").append(block.expression()).append('}');
                i = block.end();
                continue;
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

    /** A Jinja block as one expression, and the index just after it. */
    private record Block(String expression, int end) {}

    /** A {@code {% ... %}} tag: its words, and the index just after it. */
    private record Tag(String words, int end) {}

    private Tag tag(String body, int start, Pos pos) {
        int end = body.indexOf("%}", start + 2);
        if (end < 0) {
            problems.error(pos, "the Jinja statement '{%' is not closed by '%}'");
            return null;
        }
        String words = body.substring(start + 2, end);
        if (words.startsWith("-") || words.endsWith("-") || words.startsWith("+")) {
            problems.error(
                    pos, "Jinja whitespace control ('{%-', '-%}') is not supported: write the spaces as they are");
            return null;
        }
        return new Tag(words.strip(), end + 2);
    }

    /**
     * {@code {% if c %}A{% elif d %}B{% else %}C{% endif %}} starting at {@code start}, as one
     * expression: {@code (c) && (A) || !(c) && (d) && (B) || !(c) && !(d) && (C) || ''}, where each
     * branch is its text and {@code {{...}}} concatenated ({@code &&} and {@code ||} answer the deciding
     * value, so an empty branch gives empty text). Null after a problem (reported).
     */
    private Block ifBlock(String body, int start, Pos pos) {
        Tag open = tag(body, start, pos);
        if (open == null) {
            return null;
        }
        if (!open.words().startsWith("if ")) {
            String word = open.words().split("\\s+", 2)[0];
            problems.error(
                    pos,
                    "the Jinja statement '{% " + word + " %}' is not supported in templates (only {% if %}, {% elif"
                            + " %}, {% else %} and {% endif %}): use $for and $set steps");
            return null;
        }
        List<String> conditions = new ArrayList<>();
        List<String> branches = new ArrayList<>();
        String condition = expression(open.words().substring(3), pos);
        if (condition == null) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = open.end();
        while (i < body.length()) {
            if (body.startsWith("{{", i)) {
                boolean triple = body.startsWith("{{{", i);
                String close = triple ? "}}}" : "}}";
                int end = body.indexOf(close, i + (triple ? 3 : 2));
                if (end < 0) {
                    problems.error(pos, "'" + (triple ? "{{{" : "{{") + "' is not closed by '" + close + "'");
                    return null;
                }
                String expr = expression(body.substring(i + (triple ? 3 : 2), end), pos);
                if (expr == null) {
                    return null;
                }
                flush(text, parts);
                parts.add("(" + expr + ")");
                i = end + close.length();
            } else if (body.startsWith("{#", i)) {
                int end = body.indexOf("#}", i + 2);
                if (end < 0) {
                    problems.error(pos, "the Jinja comment '{#' is not closed by '#}'");
                    return null;
                }
                i = end + 2;
            } else if (body.startsWith("{%", i)) {
                Tag tag = tag(body, i, pos);
                if (tag == null) {
                    return null;
                }
                String words = tag.words();
                if (words.startsWith("if ")) {
                    Block inner = ifBlock(body, i, pos);
                    if (inner == null) {
                        return null;
                    }
                    flush(text, parts);
                    parts.add("(" + inner.expression() + ")");
                    i = inner.end();
                    continue;
                }
                if (!(words.startsWith("elif ") || words.equals("else") || words.equals("endif"))) {
                    String word = words.split("\\s+", 2)[0];
                    problems.error(
                            pos,
                            "the Jinja statement '{% " + word + " %}' is not supported in templates (only {% if %},"
                                    + " {% elif %}, {% else %} and {% endif %}): use $for and $set steps");
                    return null;
                }
                flush(text, parts);
                conditions.add(condition);
                branches.add(parts.isEmpty() ? "''" : String.join(" + ", parts));
                parts = new ArrayList<>();
                if (words.equals("endif")) {
                    return block(conditions, branches, tag.end(), pos);
                }
                if (condition == null) {
                    problems.error(pos, "'{% " + words + " %}' comes after '{% else %}' in one '{% if %}'");
                    return null;
                }
                if (words.equals("else")) {
                    condition = null;
                } else {
                    condition = expression(words.substring(5), pos);
                    if (condition == null) {
                        return null;
                    }
                }
                i = tag.end();
            } else if (body.startsWith("${", i) && !body.startsWith("${{", i)) {
                text.append("${");
                i += 2;
            } else {
                text.append(body.charAt(i));
                i++;
            }
        }
        problems.error(pos, "'{% if %}' is not closed by '{% endif %}'");
        return null;
    }

    private static void flush(StringBuilder text, List<String> parts) {
        if (text.length() > 0) {
            parts.add(quote(text.toString()));
            text.setLength(0);
        }
    }

    private Block block(List<String> conditions, List<String> branches, int end, Pos pos) {
        List<String> terms = new ArrayList<>();
        List<String> before = new ArrayList<>();
        for (int b = 0; b < branches.size(); b++) {
            List<String> term = new ArrayList<>(before);
            String condition = conditions.get(b);
            if (condition != null) {
                term.add("(" + condition + ")");
                before.add("!(" + condition + ")");
            }
            term.add("(" + branches.get(b) + ")");
            terms.add(String.join(" && ", term));
        }
        terms.add("''");
        String expression = String.join(" || ", terms);
        try {
            ExprParser.parse(expression);
        } catch (RuntimeException | StackOverflowError e) {
            problems.error(pos, "the Jinja '{% if %}' cannot be read as an expression");
            return null;
        }
        return new Block(expression, end);
    }

    /** Text as an expression's string literal. */
    private static String quote(String text) {
        StringBuilder out = new StringBuilder("'");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\'' -> out.append("\\'");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c);
            }
        }
        return out.append('\'').toString();
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
