package dev.planvm.dialects.internal.ppe;

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
            problems.error(
                    pos,
                    describeBracket(body.substring(open))
                            + (body.startsWith("[[/", open)
                                    ? " is supported in user and system turns"
                                    : " is supported only in an assistant turn"));
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

    /**
     * What a turn's template does beyond one expression, written as instructions before the turn
     * ({@link ScriptCompiler}): a script invocation and the statements {@code {% for %}} and
     * {@code {% set %}}. Null outside turns, where they are refused.
     */
    interface Blocks {

        /**
         * Calls the script of {@code [[@inner]]} when {@code guard} holds (null: always); the variable
         * holding its result, or null after a problem (reported).
         */
        String invocation(String inner, String guard, Pos pos);

        /**
         * Starts {@code {% for name in list %}} (skipped unless {@code guard} holds): the loop's
         * variables; the body's instructions follow.
         */
        Loop loopStart(String name, String list, String guard, Pos pos);

        /** Ends a loop: the body's text (an expression) is added to the loop's text, then the next element. */
        void loopEnd(Loop loop, String body, Pos pos);

        /** {@code {% set name = expression %}} when {@code guard} holds (null: always). */
        void set(String name, String expression, String guard, Pos pos);
    }

    /**
     * A {@code {% for %}} loop's variables: {@code text} holds what it rendered, {@code loop} the
     * Jinja {@code loop} object (index, index0, first, last, length), set only when the body reads it.
     */
    record Loop(
            String text,
            String loop,
            com.fasterxml.jackson.databind.node.ObjectNode element,
            com.fasterxml.jackson.databind.JsonNode loopValue) {}

    private static final java.util.regex.Pattern FOR = java.util.regex.Pattern.compile(
            "for\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+in\\s+(.+)", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern SET = java.util.regex.Pattern.compile(
            "set\\s+([A-Za-z_][A-Za-z0-9_]*)\\s*=(?!=)(.+)", java.util.regex.Pattern.DOTALL);

    /** Set while a turn's text is translated; null elsewhere. */
    Blocks blocks;
    /** The {@code loop} variable of each {@code {% for %}} being read, innermost last. */
    private final List<String> loops = new ArrayList<>();
    /** Whether the innermost loop's body read {@code loop}. */
    private final List<Boolean> loopRead = new ArrayList<>();

    /** Text with {@code {{...}}} translated; no prefix handling. Null on a problem. */
    String interpolate(String raw, Pos pos) {
        String body = JinjaSpace.apply(raw);
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
                Block block = statement(body, i, pos, null);
                if (block == null) {
                    return null;
                }
                if (block.expression() != null) {
                    if (out.length() > 0 && out.charAt(out.length() - 1) == '$') {
                        out.setLength(out.length() - 1);
                        out.append("${'$'}");
                    }
                    out.append("${").append(block.expression()).append('}');
                }
                i = block.end();
                continue;
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
                String inner = body.substring(start, end).strip();
                String expr;
                if (inner.equals("output")) {
                    // the reference shows its output schema in words; a caller that knows them passes output__text
                    String words = constants.outputWords();
                    expr = words != null
                            ? quote(words)
                            : expression(
                                    "output__text != null && output__text || output__words != null && output__words"
                                            + " || output",
                                    pos);
                } else if (inner.matches("[A-Za-z_][A-Za-z0-9_]*") && constants.isList(inner)) {
                    // a list shows its elements joined by commas, as JavaScript's text of an array
                    expr = expression(inner + " != null && join(" + inner + ", ',') || ''", pos);
                } else {
                    expr = expression(inner, pos);
                }
                if (expr == null) {
                    return null;
                }
                if (out.length() > 0 && out.charAt(out.length() - 1) == '$') {
                    // "$${" would be a literal "${": write the dollar as an expression
                    out.setLength(out.length() - 1);
                    out.append("${'$'}");
                }
                out.append("${").append(shown(expr)).append('}');
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

    /**
     * Where the next {@code [[} outside every Jinja block ({@code {% if %}}, {@code {% for %}}) is in
     * {@code body}, from {@code from}; -1 when there is none.
     */
    static int nextBracket(String body, int from) {
        int depth = 0;
        int i = from;
        while (i < body.length()) {
            if (body.startsWith("{%", i)) {
                int end = body.indexOf("%}", i + 2);
                if (end < 0) {
                    return depth == 0 ? body.indexOf("[[", i) : -1;
                }
                String words = body.substring(i + 2, end).strip();
                if (words.startsWith("if ") || words.startsWith("for ")) {
                    depth++;
                } else if ((words.equals("endif") || words.equals("endfor")) && depth > 0) {
                    depth--;
                }
                i = end + 2;
            } else if (depth == 0 && body.startsWith("[[", i)) {
                return i;
            } else {
                i++;
            }
        }
        return -1;
    }

    /** A Jinja block as one expression (null: it renders nothing), and the index just after it. */
    private record Block(String expression, int end) {}

    /** A {@code {% ... %}} tag: its words, and the index just after it. */
    private record Tag(String words, int end) {}

    /** A block's body read up to the tag that ends it: the body as one expression ({@code ''} when empty). */
    private record Body(String expression, Tag end) {}

    private Tag tag(String body, int start, Pos pos) {
        int end = body.indexOf("%}", start + 2);
        if (end < 0) {
            problems.error(pos, "the Jinja statement '{%' is not closed by '%}'");
            return null;
        }
        String words = body.substring(start + 2, end);
        return new Tag(words.strip(), end + 2);
    }

    /** The statement {@code {% if %}}, {@code {% for %}} or {@code {% set %}} at {@code start}; null after a problem. */
    private Block statement(String body, int start, Pos pos, String guard) {
        Tag open = tag(body, start, pos);
        if (open == null) {
            return null;
        }
        String words = open.words();
        if (words.startsWith("if ")) {
            return ifBlock(body, start, pos, guard);
        }
        if (words.startsWith("for ") || words.startsWith("set ")) {
            if (blocks == null) {
                problems.error(
                        pos,
                        "the Jinja statement '{% " + words.split("\\s+", 2)[0] + " %}' is supported in turns only:"
                                + " use $for and $set steps");
                return null;
            }
            return words.startsWith("for ") ? forBlock(body, open, pos, guard) : set(open, pos, guard);
        }
        String word = words.split("\\s+", 2)[0];
        problems.error(
                pos,
                "the Jinja statement '{% " + word + " %}' is not supported in templates (only {% if %}, {% elif"
                        + " %}, {% else %}, {% endif %}, {% for %}, {% endfor %} and {% set %}): use $for and"
                        + " $set steps");
        return null;
    }

    /**
     * {@code {% if c %}A{% elif d %}B{% else %}C{% endif %}} starting at {@code start}, as one
     * expression: {@code (c) && (A) || !(c) && (d) && (B) || !(c) && !(d) && (C) || ''}, where each
     * branch is its text and {@code {{...}}} concatenated ({@code &&} and {@code ||} answer the deciding
     * value, so an empty branch gives empty text). What a branch runs (a script invocation, a loop, a
     * set) runs only when the branch is taken: when {@code guard} and its conditions hold. Null after a
     * problem (reported).
     */
    private Block ifBlock(String body, int start, Pos pos, String guard) {
        Tag open = tag(body, start, pos);
        if (open == null) {
            return null;
        }
        List<String> conditions = new ArrayList<>();
        List<String> branches = new ArrayList<>();
        List<String> before = new ArrayList<>();
        String condition = expression(open.words().substring(3), pos);
        if (condition == null) {
            return null;
        }
        int i = open.end();
        while (true) {
            List<String> holds = new ArrayList<>();
            if (guard != null) {
                holds.add(guard);
            }
            holds.addAll(before);
            if (condition != null) {
                holds.add("(" + condition + ")");
            }
            Body branch = body(
                    body,
                    i,
                    pos,
                    String.join(" && ", holds),
                    Set.of("elif", "else", "endif"),
                    "'{% if %}' is not closed by '{% endif %}'");
            if (branch == null) {
                return null;
            }
            String words = branch.end().words();
            conditions.add(condition);
            branches.add(branch.expression());
            if (words.equals("endif")) {
                return block(conditions, branches, branch.end().end(), pos);
            }
            if (condition == null) {
                problems.error(pos, "'{% " + words + " %}' comes after '{% else %}' in one '{% if %}'");
                return null;
            }
            before.add("!(" + condition + ")");
            if (words.equals("else")) {
                condition = null;
            } else {
                condition = expression(words.substring(5), pos);
                if (condition == null) {
                    return null;
                }
            }
            i = branch.end().end();
        }
    }

    /**
     * {@code {% for x in list %}...{% endfor %}}: a loop of instructions before the turn, which adds
     * the body's text for each element of the list; the block shows what it added.
     */
    private Block forBlock(String body, Tag open, Pos pos, String guard) {
        java.util.regex.Matcher m = FOR.matcher(open.words());
        if (!m.matches()) {
            problems.error(
                    pos,
                    "'{% " + open.words() + " %}' is not supported: write {% for name in list %} (one name, a list)");
            return null;
        }
        String list = expression(m.group(2), pos);
        if (list == null) {
            return null;
        }
        Loop loop = blocks.loopStart(m.group(1), list, guard, pos);
        loops.add(loop.loop());
        loopRead.add(false);
        Body each;
        try {
            each = body(
                    body, open.end(), pos, "", Set.of("endfor", "else"), "'{% for %}' is not closed by '{% endfor %}'");
        } finally {
            loops.remove(loops.size() - 1);
            if (loopRead.remove(loopRead.size() - 1)) {
                loop.element().set(loop.loop(), loop.loopValue());
            }
        }
        if (each == null) {
            return null;
        }
        if (each.end().words().equals("else")) {
            problems.error(pos, "'{% else %}' in a '{% for %}' is not supported: test the list with {% if %}");
            return null;
        }
        blocks.loopEnd(loop, each.expression(), pos);
        return new Block(loop.text(), each.end().end());
    }

    /** {@code {% set name = expression %}}: an assign before the turn; it renders nothing. */
    private Block set(Tag open, Pos pos, String guard) {
        java.util.regex.Matcher m = SET.matcher(open.words());
        if (!m.matches()) {
            problems.error(pos, "'{% " + open.words() + " %}' is not supported: write {% set name = expression %}");
            return null;
        }
        String value = expression(m.group(2), pos);
        if (value == null) {
            return null;
        }
        blocks.set(m.group(1), value, guard, pos);
        return new Block(null, open.end());
    }

    /**
     * A block's body from {@code start} to the first tag named in {@code ends} at its level: text,
     * {@code {{...}}}, comments, nested statements and (in a turn) script invocations, run when
     * {@code guard} holds (empty: always). Null after a problem.
     */
    private Body body(String body, int start, Pos pos, String guard, Set<String> ends, String unclosed) {
        String when = guard.isEmpty() ? null : guard;
        List<String> parts = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        int i = start;
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
                String word = tag.words().split("\\s+", 2)[0];
                if (ends.contains(word) && (!word.equals("elif") || tag.words().startsWith("elif "))) {
                    flush(text, parts);
                    return new Body(parts.isEmpty() ? "''" : String.join(" + ", parts), tag);
                }
                if (!tag.words().startsWith("if ")
                        && !tag.words().startsWith("for ")
                        && !tag.words().startsWith("set ")
                        && List.of("elif", "else", "endif", "endfor").contains(word)) {
                    problems.error(pos, "'{% " + tag.words() + " %}' does not close the block it is in");
                    return null;
                }
                Block inner = statement(body, i, pos, when);
                if (inner == null) {
                    return null;
                }
                if (inner.expression() != null) {
                    flush(text, parts);
                    parts.add("(" + inner.expression() + ")");
                }
                i = inner.end();
            } else if (body.startsWith("[[", i) && body.indexOf("]]", i + 2) > 0 && blocks != null) {
                int close = body.indexOf("]]", i + 2);
                if (!body.startsWith("[[@", i)) {
                    problems.error(
                            pos,
                            describeBracket(body.substring(i))
                                    + " is not supported inside a Jinja block: write it outside the block");
                    return null;
                }
                String variable = blocks.invocation(body.substring(i + 2, close), when, pos);
                if (variable == null) {
                    return null;
                }
                flush(text, parts);
                parts.add("(" + variable + ")");
                i = close + 2;
            } else if (body.startsWith("${", i) && !body.startsWith("${{", i)) {
                text.append("${");
                i += 2;
            } else {
                text.append(body.charAt(i));
                i++;
            }
        }
        problems.error(pos, unclosed);
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
    static String quote(String text) {
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
        List<String> parts = Invocations.split(source, "|");
        List<String> merged = new ArrayList<>();
        for (String part : parts) { // "a || b" splits into "a ", "", " b": join them again
            if (!merged.isEmpty()
                    && (part.isEmpty() || merged.get(merged.size() - 1).endsWith("|"))) {
                merged.set(merged.size() - 1, merged.get(merged.size() - 1) + "|" + part);
            } else {
                merged.add(part);
            }
        }
        String base = merged.get(0);
        String translated = translate(base, pos);
        if (translated == null) {
            return null;
        }
        for (String filter : merged.subList(1, merged.size())) {
            translated = filter(filter.strip(), translated, base.strip(), source, pos);
            if (translated == null) {
                return null;
            }
        }
        return checked(translated, source, pos);
    }

    /** A Jinja filter applied to {@code value} (a planvm expression); null when it is not supported (reported). */
    private String filter(String filter, String value, String base, String source, Pos pos) {
        switch (filter) {
            case "trim", "upper", "lower" -> {
                return filter + "(" + value + ")";
            }
            case "length", "count" -> {
                return "len(" + value + ")";
            }
            case "toMarkdown" -> {
                String markdown = constants.markdown(base);
                if (markdown != null) {
                    return quote(markdown);
                }
                problems.error(
                        pos,
                        "'| toMarkdown' is supported on a value the front matter gives ('" + base
                                + "' is an input or set by the script)");
                return null;
            }
            default -> {
                problems.error(
                        pos,
                        "the Jinja filter '| " + filter + "' in '{{" + source.strip()
                                + "}}' is not supported (trim, upper, lower, length, toMarkdown)");
                return null;
            }
        }
    }

    /** Values the compiler knows from the front matter, for filters that are rendered when the script compiles. */
    interface Constants {
        /** {@code name}'s front-matter value as Markdown ({@code | toMarkdown}), "null" when nothing sets it; null when unknown. */
        String markdown(String name);

        /** The script's {@code output} schema in words ({@code {{output}}}), or null when it is not known now. */
        default String outputWords() {
            return null;
        }

        /** Whether {@code name} is an input declared a list ({@code type: array}): shown as JavaScript shows one. */
        default boolean isList(String name) {
            return false;
        }
    }

    Constants constants = name -> null;

    /** How {@code {{expr}}} shows a value: an unset or null one as empty text, as Jinja does. */
    static String shown(String expr) {
        if (expr.startsWith("'") && expr.endsWith("'") && expr.indexOf('\'', 1) == expr.length() - 1) {
            return expr;
        }
        String e = expr.matches("[A-Za-z_][A-Za-z0-9_.]*") ? expr : "(" + expr + ")";
        return "(" + e + " != null && [" + e + "] || [''])[0]";
    }

    private String checked(String translated, String source, Pos pos) {
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

    /**
     * A Jinja/JavaScript expression written as planvm's: the Jinja words ({@code and or not True False None}),
     * JavaScript's {@code === !==}, {@code this.x} (a variable of the script), {@code a?.b} and {@code
     * undefined}, {@code x.length} ({@code len(x)}), Jinja's {@code ~} (text joined).
     */
    private String translate(String source, Pos pos) {
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
            } else if (Character.isLetter(c) || c == '_' || c == '$') {
                int end = i + 1;
                while (end < source.length()
                        && (Character.isLetterOrDigit(source.charAt(end)) || source.charAt(end) == '_')) {
                    end++;
                }
                String word = source.substring(i, end);
                boolean member = out.length() > 0 && out.charAt(out.length() - 1) == '.';
                if (!member && word.equals("this") && source.startsWith(".", end)) {
                    i = end + 1; // this.x: the script's variable x
                    continue;
                }
                if (member && word.equals("length")) {
                    out.setLength(out.length() - 1);
                    int from = pathStart(out);
                    String path = out.substring(from);
                    out.setLength(from);
                    out.append("len(").append(path).append(')');
                    i = end;
                    continue;
                }
                String mapped = member ? word : word.equals("undefined") ? "null" : jinjaWord(word, pos);
                if (mapped == null) {
                    return null;
                }
                out.append(mapped);
                i = end;
            } else if (source.startsWith("===", i) || source.startsWith("!==", i)) {
                out.append(c).append('=');
                i += 3;
            } else if (source.startsWith("?.", i)
                    && (i + 2 >= source.length() || !Character.isDigit(source.charAt(i + 2)))) {
                out.append('.');
                i += 2;
            } else if (c == '~') {
                out.append('+');
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString().strip();
    }

    /** Where the path that ends {@code out} starts ({@code a.b[0]}, {@code f(x).y}). */
    private static int pathStart(StringBuilder out) {
        int i = out.length();
        int depth = 0;
        while (i > 0) {
            char c = out.charAt(i - 1);
            if (c == ']' || c == ')') {
                depth++;
            } else if ((c == '[' || c == '(') && depth > 0) {
                depth--;
            } else if (depth == 0 && !(Character.isLetterOrDigit(c) || c == '_' || c == '.')) {
                break;
            }
            i--;
        }
        return i;
    }

    private String jinjaWord(String word, Pos pos) {
        if (word.equals("loop") && !loops.isEmpty()) {
            loopRead.set(loopRead.size() - 1, true);
            return loops.get(loops.size() - 1);
        }
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
