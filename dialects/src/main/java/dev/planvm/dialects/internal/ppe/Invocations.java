package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Calls of imported scripts, which are plan tools: an invocation replacement {@code [[@script(args)]]}
 * in a turn (the call runs before the turn, whose text shows its result) and a chain
 * {@code -> script(args) -> $print} (each link is given the result before it as {@code content}, or
 * an object result's keys as its inputs, with its own arguments; the result of the last is
 * {@code LatestResult} and the script's result).
 * Arguments are {@code name=value} (a quoted string, a number, {@code true}/{@code false}/{@code null}
 * or an expression) or one value without a name, passed as {@code content}.
 */
final class Invocations {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern CALL =
            Pattern.compile("([A-Za-z_][A-Za-z0-9_.-]*)\\s*(?:\\((.*)\\))?", Pattern.DOTALL);
    private static final Pattern DIRECTIVE =
            Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)\\s*(?:\\((.*)\\))?", Pattern.DOTALL);
    private static final Pattern ARG_NAME = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*=(?!=)(.*)", Pattern.DOTALL);
    /** Where a chain's script calls put their result (seed 004's name). */
    static final String LATEST = "LatestResult";

    private final ScriptCompiler script;
    private final Problems problems;
    private final Map<String, Integer> sites = new HashMap<>();

    Invocations(ScriptCompiler script) {
        this.script = script;
        this.problems = script.problems;
    }

    /** A parsed call: the plan tool and its params. */
    private record Call(String tool, ObjectNode params) {}

    /**
     * {@code [[@...]]} in a turn: calls the script now and returns the template that shows its result
     * ({@code ${VAR}}), or null after a problem.
     */
    String replacement(String inner, Pos pos) {
        String variable = called(inner, null, pos);
        return variable == null ? null : "${" + variable + "}";
    }

    /**
     * {@code [[@...]]} in a turn, in a Jinja branch that {@code guard} selects (null: always): calls
     * the script now when the guard holds and returns the variable of its result, or null after a
     * problem.
     */
    String called(String inner, String guard, Pos pos) {
        String text = inner.strip().substring(1).strip();
        if (text.startsWith("$")) {
            problems.error(
                    pos,
                    "calling a directive with '[[@" + text + "]]' is not supported: call imported scripts"
                            + " ([[@script(args)]]), show values with {{name}}");
            return null;
        }
        Call call = call(text, null, pos, "[[@" + text + "]]");
        if (call == null) {
            return null;
        }
        if (call.tool() == null) {
            // no such script: the reference shows the text as written; a broken one fails the step
            return call.params() == null ? Templates.quote("[[" + inner + "]]") : Dialogue.LATEST;
        }
        String variable = variable(call.tool());
        PlanBuilder.Label skip = null;
        if (guard != null) {
            skip = script.plan.label();
            script.plan.jumpIf(
                    "${!(" + guard + ")}",
                    skip,
                    pos,
                    "line " + pos.line() + ": [[@" + call.tool() + "]] runs only when its Jinja branch is taken");
        }
        script.plan.calling(
                call.tool(), call.params(), variable, pos, "line " + pos.line() + ": [[@" + call.tool() + "]]");
        if (skip != null) {
            script.plan.place(skip);
        }
        return variable;
    }

    /** A chain step, {@code -> a(x=1) -> b -> $print}. */
    void chain(
            String text, Pos pos, Dialogue dialogue, ScriptCompiler.Loop loop, boolean atEnd, Directives directives) {
        List<String> links = split(text.strip().substring(2), "->");
        for (int i = 0; i < links.size(); i++) {
            String link = links.get(i).strip();
            boolean last = i == links.size() - 1;
            if (link.isEmpty()) {
                problems.error(pos, "a chain link is empty: write '-> script(args)' or '-> $print'");
                return;
            }
            JsonNode previous = script.result;
            Matcher directive = DIRECTIVE.matcher(link);
            if (directive.matches()) {
                String name = directive.group(1);
                if (name.equals("set")) {
                    setLink(directive.group(2), previous, pos);
                    continue;
                }
                if (!List.of("print", "echo", "ret", "return").contains(name)) {
                    problems.error(
                            pos,
                            "'$" + name + "' in a chain is not supported: a chain passes its result on to imported"
                                    + " scripts, $print, $echo or $ret");
                    return;
                }
                if (directive.group(2) != null && !directive.group(2).isBlank()) {
                    directives.call(name, directive.group(2), pos, dialogue, loop, atEnd && last);
                    continue;
                }
                if (name.equals("print")) {
                    ObjectNode assigned = JSON.objectNode();
                    assigned.set("printed", previous);
                    script.plan.assign(assigned, pos, "line " + pos.line() + ": -> $print");
                } else if (!name.equals("echo") && !(atEnd && last)) {
                    script.jumpToEnd(pos, "$" + name + " ends the script");
                }
                continue;
            }
            Call call = call(link, spread(link, previous), pos, "-> " + link);
            if (call == null) {
                return;
            }
            if (call.tool() == null) {
                continue;
            }
            script.plan.calling(call.tool(), call.params(), LATEST, pos, "line " + pos.line() + ": -> " + call.tool());
            script.result = TextNode.valueOf("${" + LATEST + "}");
            JsonNode output = script.importedPlans
                    .getOrDefault(call.tool(), JSON.nullNode())
                    .path("output");
            if ("object".equals(output.path("type").asText())) {
                script.typed(output);
            }
        }
    }

    /** {@code -> $set('name')}: the result before it is also kept in {@code name}, and passed on. */
    private void setLink(String args, JsonNode previous, Pos pos) {
        String name = args == null ? "" : args.strip();
        if (name.length() >= 2
                && (name.startsWith("'") || name.startsWith("\""))
                && name.endsWith(name.substring(0, 1))) {
            name = name.substring(1, name.length() - 1);
        }
        if (!ScriptCompiler.NAME.matcher(name).matches()) {
            problems.error(pos, "'-> $set(...)' takes the name of a variable to keep the result in: -> $set('name')");
            return;
        }
        ObjectNode assigned = JSON.objectNode();
        assigned.set(name, previous);
        script.plan.assign(assigned, pos, "line " + pos.line() + ": -> $set('" + name + "')");
    }

    /**
     * What a chain passes on to the script {@code link} calls, before its own arguments: the result
     * before it as {@code content}, or, when that result is known to be an object (the script before
     * declares {@code output: {type: object}}, or the AI was asked for an object), its keys spread as
     * the called script's inputs, as PPE passes an object result: each input the called script
     * declares that the object has ({@code ${LatestResult.key}}; all its declared inputs when the
     * schema lists no properties).
     */
    private ObjectNode spread(String link, JsonNode previous) {
        ObjectNode params = JSON.objectNode();
        JsonNode schema = script.resultSchema();
        Matcher m = CALL.matcher(link.strip());
        JsonNode next = m.matches() ? script.importedPlans.get(m.group(1)) : null;
        if (schema == null
                || next == null
                || !previous.isTextual()
                || !previous.textValue().matches("\\$\\{[A-Za-z_][A-Za-z0-9_]*}")) {
            params.set("content", previous);
            return params;
        }
        String variable = previous.textValue().substring(2, previous.textValue().length() - 1);
        JsonNode properties = schema.path("properties");
        next.path("inputs").path("properties").fieldNames().forEachRemaining(name -> {
            if (!properties.isObject() || properties.has(name)) {
                params.put(name, "${" + variable + "." + name + "}");
            }
        });
        return params;
    }

    /** {@code name(args)} of an imported script, given {@code passed} (may be null) before its own arguments. */
    private Call call(String text, ObjectNode passed, Pos pos, String written) {
        boolean invocation = written.startsWith("[[@");
        Matcher m = CALL.matcher(text.strip());
        if (!m.matches()) {
            problems.error(pos, "'" + written + "' is not a call of an imported script: write script(name=value, ...)");
            return null;
        }
        String tool = m.group(1);
        JsonNode callable = script.callable(tool, pos);
        if (callable == null || callable.isNull()) {
            if (problems.hasErrors()) {
                return null;
            }
            if (callable == null) {
                if (invocation) {
                    return new Call(null, null); // the reference shows [[@name(...)]] as it is written
                }
                problems.warning(
                        pos,
                        "the script '" + tool + "' is not found: not imported, not in planvm's library, no " + tool
                                + ".ai.yaml beside this script; the step fails when it runs");
            }
            script.failWhenRun(
                    callable == null
                            ? "no script '" + tool + "' (not imported, not built in, not beside this script)"
                            : "the script '" + tool + "' does not compile",
                    pos);
            return new Call(null, JSON.objectNode());
        }
        ObjectNode params = passed == null ? JSON.objectNode() : passed;
        String args = m.group(2);
        if (args == null || args.isBlank()) {
            return new Call(tool, params);
        }
        boolean positional = false;
        for (String arg : split(args, ",")) {
            String a = arg.strip();
            Matcher named = ARG_NAME.matcher(a);
            String name;
            String value;
            if (named.matches()) {
                name = named.group(1);
                value = named.group(2).strip();
            } else if (a.matches("[A-Za-z_][A-Za-z0-9_]*") && declares(tool, a)) {
                name = a; // f(lang) passes lang when f declares it, as {lang} in JavaScript
                value = a;
            } else {
                if (positional) {
                    problems.error(
                            pos, "'" + written + "' has more than one argument without a name: name them (name=value)");
                    return null;
                }
                positional = true;
                name = "content";
                value = a;
            }
            JsonNode v = passed != null && value.equals("content")
                    // in a chain, content is the result passed on (the script's own content before any result)
                    ? JSON.textNode("${(" + LATEST + " != null && [" + LATEST + "] || [content])[0]}")
                    : value(value, pos);
            if (v == null) {
                return null;
            }
            params.set(name, v);
            if (name.equals("output") && v.asText().equals("${output}")) {
                String words = SchemaText.of(script.front.output);
                if (words != null) {
                    params.put("output__text", words); // the schema in words, which the called script shows
                }
            }
        }
        return new Call(tool, params);
    }

    /** Whether the script {@code tool} declares the input {@code name}. */
    private boolean declares(String tool, String name) {
        JsonNode plan = script.importedPlans.get(tool);
        return plan != null && plan.path("inputs").path("properties").has(name) && !name.equals("content");
    }

    /** An argument's value: quoted text as written, a number, boolean or null, else an expression. */
    private JsonNode value(String v, Pos pos) {
        if (v.isEmpty()) {
            problems.error(pos, "an argument has no value");
            return null;
        }
        if (v.length() >= 2
                && (v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\""))
                && v.indexOf(v.charAt(0), 1) == v.length() - 1) {
            return JSON.textNode(Templates.literal(v.substring(1, v.length() - 1)));
        }
        JsonNode typed = Values.typed(new PNode.Scalar(v, pos, true, null));
        if (typed != null) {
            return typed;
        }
        String expr = script.templates.expression(v, pos);
        return expr == null ? null : JSON.textNode("${" + expr + "}");
    }

    /** Where a call site's result goes: {@code SCRIPT_RESULT}, then {@code SCRIPT_RESULT_2}, ... */
    private String variable(String tool) {
        String base = tool.replaceAll("[^A-Za-z0-9_]", "_") + "_RESULT";
        int n = sites.merge(base, 1, Integer::sum);
        return n == 1 ? base : base + "_" + n;
    }

    /** {@code text} split at {@code separator} outside quotes, parentheses, brackets and braces. */
    static List<String> split(String text, String separator) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (depth == 0 && text.startsWith(separator, i)) {
                parts.add(text.substring(start, i));
                i += separator.length() - 1;
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
