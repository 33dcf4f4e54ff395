package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.List;
import java.util.Set;

/**
 * The directives a script may use, each as planvm instructions: {@code $set}, {@code $echo} /
 * {@code $print}, {@code $format}, {@code $ret} and {@code $abort} as assigns (and a jump);
 * {@code $AI} and {@code $tool} as calls; events ({@code $on}, {@code $emit}, ...) as {@link Events};
 * the control flow ({@code $if}, {@code $while}, {@code $for}, {@code $match}, {@code $break},
 * {@code $continue}) as local {@code jmp}s ({@link ControlFlow}).
 * Every other directive is refused by name.
 */
final class Directives {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<String> AI_IGNORED = Set.of("stream", "pushMessage", "shouldAppendResponse");

    private final ScriptCompiler script;
    private final Problems problems;
    private final ControlFlow control;

    Directives(ScriptCompiler script) {
        this.script = script;
        this.problems = script.problems;
        this.control = new ControlFlow(script);
    }

    /** A directive step: {@code key} is {@code $name} or {@code $match(expr)}; {@code value} null when bare. */
    void directive(
            PNode.Scalar key,
            PNode value,
            List<PNode.Entry> settings,
            Dialogue dialogue,
            ScriptCompiler.Loop loop,
            boolean atEnd) {
        String name = key.value();
        Pos pos = key.pos();
        if (name.startsWith("$match")) {
            control.match(key, value, dialogue, loop);
            return;
        }
        if (!settings.isEmpty() && !Set.of("$if", "$while", "$for").contains(name)) {
            problems.error(
                    settings.get(0).key().pos(),
                    "'" + settings.get(0).key().value() + "' is not a setting of " + name
                            + ": write it as a step of its own");
            return;
        }
        switch (name) {
            case "$if" -> control.ifThenElse(pos, value, settings, dialogue, loop);
            case "$while" -> control.whileLoop(pos, value, settings, dialogue, loop);
            case "$for" -> control.forLoop(pos, value, settings, dialogue, loop);
            case "$break", "$continue" -> control.breakOrContinue(name, pos, value, loop);
            case "$set" -> set(pos, value);
            case "$echo", "$print" -> echo(name, pos, value);
            case "$format" -> format(pos, value);
            case "$ret", "$return" -> ret(pos, value, atEnd);
            case "$abort" -> abort(pos, value);
            case "$AI", "$ai" -> ai(pos, value, dialogue);
            case "$tool" -> tool(pos, value, dialogue);
            case "$exec" -> problems.error(pos, "$exec (running another script) is not supported: it needs plan tools");
            case "$pipe" -> problems.error(pos, "$pipe is not supported: it needs plan tools");
            case "$on", "$once", "$off" -> script.events.listen(name, pos, value, script.depth == 0 && loop == null);
            case "$emit" -> script.events.emit(pos, value);
            case "$prompt", "$parameters" ->
                problems.error(
                        pos, name + " is not supported: set llm_generate params in the front matter's 'parameters'");
            case "$get" -> problems.error(pos, "$get is not supported: read variables with {{name}} or ?=name");
            default ->
                problems.error(
                        pos,
                        "unknown directive " + name
                                + ": custom functions (!fn, imports) are not supported; planvm knows"
                                + " $if, $while, $for, $match, $set, $ret, $abort, $format, $echo, $print, $AI, $tool,"
                                + " $break, $continue, $on, $once, $off, $emit");
        }
    }

    /** {@code $print(x)}, {@code $echo('text')}, {@code $ret(x)}, {@code $format(...)}: one argument. */
    void call(String name, String argument, Pos pos, Dialogue dialogue, ScriptCompiler.Loop loop, boolean atEnd) {
        String arg = argument.strip();
        PNode value;
        if (arg.isEmpty()) {
            value = null;
        } else if (arg.length() >= 2
                && (arg.startsWith("'") && arg.endsWith("'") || arg.startsWith("\"") && arg.endsWith("\""))
                && arg.indexOf(arg.charAt(0), 1) == arg.length() - 1) {
            value = new PNode.Scalar(arg.substring(1, arg.length() - 1), pos, false, null);
        } else {
            value = new PNode.Scalar("?=" + arg, pos, false, null);
        }
        switch (name) {
            case "echo", "print", "ret", "return", "format", "abort" ->
                directive(new PNode.Scalar("$" + name, pos, true, null), value, List.of(), dialogue, loop, atEnd);
            default ->
                problems.error(
                        pos,
                        "$" + name + "(...) is not supported: only $print, $echo, $ret, $format and $abort take"
                                + " an argument in parentheses");
        }
    }

    private void set(Pos pos, PNode value) {
        if (!(value instanceof PNode.Mapping map)) {
            problems.error(pos, "$set takes a mapping of variables: '$set: {name: value}'");
            return;
        }
        ObjectNode assigned = JSON.objectNode();
        for (PNode.Entry e : map.entries()) {
            String key = e.key().value();
            if (!ScriptCompiler.NAME.matcher(key).matches()) {
                problems.error(
                        e.key().pos(),
                        key.contains(".")
                                ? "key paths ('" + key + "') are not supported in $set: set the whole variable"
                                : "'" + key + "' is not a variable name (letters, digits, _)");
                continue;
            }
            JsonNode v = script.values.value(e.value());
            if (v != null) {
                assigned.set(key, v);
            }
        }
        if (!assigned.isEmpty()) {
            List<String> names = names(assigned);
            script.plan.assign(assigned, pos, "line " + pos.line() + ": $set " + String.join(", ", names));
            ObjectNode latest = JSON.objectNode();
            if (names.size() == 1) {
                latest.put(Dialogue.LATEST, "${" + names.get(0) + "}");
            } else {
                ObjectNode all = latest.putObject(Dialogue.LATEST);
                names.forEach(n -> all.put(n, "${" + n + "}"));
            }
            script.plan.assign(latest, pos, "line " + pos.line() + ": $set's result");
            script.resultChanged();
        }
    }

    private static List<String> names(ObjectNode object) {
        return object.properties().stream().map(java.util.Map.Entry::getKey).toList();
    }

    /** The value of a directive: null (bare) as empty text. */
    private JsonNode valueOf(PNode value) {
        return value == null ? TextNode.valueOf("") : script.values.value(value);
    }

    /** {@code $echo} sets the result; {@code $print} only shows a value (in the trace, as {@code printed}). */
    private void echo(String name, Pos pos, PNode value) {
        JsonNode v = valueOf(value);
        if (v == null) {
            return;
        }
        ObjectNode assigned = JSON.objectNode();
        assigned.set(name.equals("$print") ? "printed" : Dialogue.LATEST, v);
        script.plan.assign(assigned, pos, "line " + pos.line() + ": " + name);
        if (!name.equals("$print")) {
            script.resultChanged();
        }
    }

    private void format(Pos pos, PNode value) {
        PNode template = value;
        if (value instanceof PNode.Mapping map) {
            template = null;
            ObjectNode data = JSON.objectNode();
            for (PNode.Entry e : map.entries()) {
                switch (e.key().value()) {
                    case "template" -> template = e.value();
                    case "data" -> {
                        if (e.value() instanceof PNode.Mapping m) {
                            for (PNode.Entry field : m.entries()) {
                                if (!ScriptCompiler.NAME
                                        .matcher(field.key().value())
                                        .matches()) {
                                    problems.error(
                                            field.key().pos(),
                                            "'" + field.key().value()
                                                    + "' is not a variable name (letters, digits, _)");
                                    return;
                                }
                            }
                        }
                        JsonNode d = script.values.value(e.value());
                        if (d != null && d.isObject()) {
                            data.setAll((ObjectNode) d);
                        } else if (d != null) {
                            problems.error(e.value().pos(), "$format's data is a mapping of variables");
                        }
                    }
                    case "templateFormat" -> {
                        String f = e.value() instanceof PNode.Scalar s ? s.value() : "";
                        if (!f.equals("hf") && !f.equals("huggingface")) {
                            problems.error(e.value().pos(), "templateFormat '" + f + "' is not supported: only hf");
                        }
                    }
                    default -> problems.error(e.key().pos(), "'" + e.key().value() + "' is not a setting of $format");
                }
            }
            if (template == null) {
                problems.error(pos, "$format needs a 'template'");
                return;
            }
            if (!data.isEmpty()) {
                script.plan.assign(data, pos, "line " + pos.line() + ": $format data");
            }
        }
        JsonNode v = valueOf(template);
        if (v == null) {
            return;
        }
        ObjectNode assigned = JSON.objectNode();
        assigned.set("formatted", v);
        assigned.put(Dialogue.LATEST, "${formatted}");
        script.plan.assign(assigned, pos, "line " + pos.line() + ": $format");
        script.resultChanged();
    }

    /** {@code $ret value} makes the value the result and ends the script; a bare {@code $ret} keeps the result. */
    private void ret(Pos pos, PNode value, boolean atEnd) {
        if (value != null) {
            JsonNode v = script.values.value(value);
            if (v == null) {
                return;
            }
            ObjectNode assigned = JSON.objectNode();
            assigned.set(Dialogue.LATEST, v);
            script.plan.assign(assigned, pos, "line " + pos.line() + ": $ret");
            script.resultChanged();
        }
        if (!atEnd) {
            script.jumpToEnd(pos, "$ret ends the script");
        }
    }

    /** Stops the run with a failed step whose message is the reason. */
    private void abort(Pos pos, PNode value) {
        JsonNode reason = value == null ? TextNode.valueOf("") : script.values.value(value);
        if (reason == null) {
            return;
        }
        ObjectNode assigned = JSON.objectNode();
        assigned.set("abort_reason", reason);
        script.plan.assign(assigned, pos, "line " + pos.line() + ": $abort");
        script.endUsed = true;
        script.plan.jumpIf(
                "${'the script aborted (line " + pos.line() + "): ' + abort_reason}",
                script.end,
                pos,
                "line " + pos.line() + ": $abort stops the run (its condition is text, so the step fails)");
    }

    private void ai(Pos pos, PNode value, Dialogue dialogue) {
        ObjectNode params = aiParams(pos, value, Set.of());
        if (params != null) {
            answer(pos, params, dialogue);
        }
    }

    /** The params of {@code $AI} (or {@code $tool: {name: llm}}), {@code except} some keys; null after a problem. */
    private ObjectNode aiParams(Pos pos, PNode value, Set<String> except) {
        ObjectNode params = JSON.objectNode();
        if (value == null || value instanceof PNode.Scalar s && s.value().isEmpty()) {
            return params;
        }
        if (!(value instanceof PNode.Mapping map)) {
            problems.error(pos, "$AI takes llm_generate params: temperature, max_tokens, model, response_format");
            return null;
        }
        for (PNode.Entry e : map.entries()) {
            String key = e.key().value();
            if (except.contains(key)) {
                continue;
            }
            if (AI_IGNORED.contains(key)) {
                problems.warning(e.key().pos(), "'" + key + "' is ignored: planvm does not stream answers");
                continue;
            }
            if (!FrontMatter.LLM_PARAMS.contains(key)) {
                problems.error(
                        e.key().pos(),
                        "'" + key + "' is not an llm_generate param (temperature, max_tokens, model, response_format)");
                return null;
            }
            JsonNode v = script.values.value(e.value());
            if (v == null) {
                return null;
            }
            if (key.equals("response_format")) {
                v = FrontMatter.responseFormat(v, script.front.output, e.key().pos(), problems);
                if (v == null) {
                    continue;
                }
            }
            params.set(key, v);
        }
        return params;
    }

    private void answer(Pos pos, ObjectNode params, Dialogue dialogue) {
        script.ai("RESPONSE", params, dialogue, "", pos, "$AI: the AI answers");
        dialogue.addAnswer("RESPONSE", pos);
    }

    private void tool(Pos pos, PNode value, Dialogue dialogue) {
        if (!(value instanceof PNode.Mapping map)) {
            problems.error(pos, "$tool takes a mapping: '$tool: {name: TOOL, param: value, ...}'");
            return;
        }
        String name = null;
        ObjectNode params = JSON.objectNode();
        for (PNode.Entry e : map.entries()) {
            if (e.key().value().equals("name")) {
                name = e.value() instanceof PNode.Scalar s ? s.value() : null;
            }
        }
        if (name == null || !name.matches("[A-Za-z_][A-Za-z0-9_.-]*(:[A-Za-z_][A-Za-z0-9_.-]*)?")) {
            problems.error(pos, "$tool needs 'name:', the name of a configured tool");
            return;
        }
        if (name.equals("llm")) {
            ObjectNode ai = aiParams(pos, value, Set.of("name"));
            if (ai != null) {
                answer(pos, ai, dialogue);
            }
            return;
        }
        for (PNode.Entry e : map.entries()) {
            if (!e.key().value().equals("name")) {
                JsonNode v = script.values.value(e.value());
                if (v == null) {
                    return;
                }
                params.set(e.key().value(), v);
            }
        }
        script.plan.calling("" + name, params, "TOOL_RESULT", pos, "line " + pos.line() + ": $tool " + name);
        ObjectNode latest = JSON.objectNode();
        latest.put(Dialogue.LATEST, "${TOOL_RESULT}");
        script.plan.assign(latest, pos, "line " + pos.line() + ": $tool's result");
        script.resultChanged();
    }
}
