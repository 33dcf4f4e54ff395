package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * {@code $if}, {@code $while}, {@code $for}, {@code $match}, {@code $break} and {@code $continue} as
 * local {@code jmp}s: each condition is negated ({@code ${!(cond)}}) so that it is a boolean whatever
 * the expression's value (JavaScript truthiness), and jumps past the body. A body continues a copy
 * of the conversation: its turns are its own.
 */
final class ControlFlow {

    private static final java.util.regex.Pattern OPTIONAL_ARGS =
            java.util.regex.Pattern.compile("(.*?)\\[\\s*,(.*)]\\s*", java.util.regex.Pattern.DOTALL);
    private static final java.util.regex.Pattern MATCH_OPTION =
            java.util.regex.Pattern.compile("(allMatches|parallel)\\s*=\\s*(true|false)");

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final ScriptCompiler script;
    private final Problems problems;
    private int loops;

    ControlFlow(ScriptCompiler script) {
        this.script = script;
        this.problems = script.problems;
    }

    /** The condition of {@code $if}/{@code $while} as a planvm expression, or null (reported). */
    private String condition(String directive, Pos pos, PNode value) {
        if (value instanceof PNode.Scalar s) {
            JsonNode typed = Values.typed(s);
            if (typed != null && typed.isBoolean()) {
                return typed.asText();
            }
            if (typed != null || s.value().isBlank()) {
                problems.error(pos, directive + " needs a condition, an expression such as \"i < 3\"");
                return null;
            }
            String source = s.value().startsWith("?=") ? s.value().substring(2) : s.value();
            return script.templates.expression(source, s.pos());
        }
        if (value == null) {
            problems.error(pos, directive + " needs a condition, an expression such as \"i < 3\"");
        } else if (script.values.refuseTag(value)) {
            problems.error(
                    value.pos(),
                    "function conditions ('" + directive + ": {$fn: ...}') are not supported: write an"
                            + " expression");
        }
        return null;
    }

    private static PNode setting(List<PNode.Entry> settings, String key) {
        for (PNode.Entry e : settings) {
            if (e.key().value().equals(key)) {
                return e.value();
            }
        }
        return null;
    }

    private boolean onlySettings(String directive, List<PNode.Entry> settings, List<String> allowed) {
        for (PNode.Entry e : settings) {
            if (!allowed.contains(e.key().value())) {
                problems.error(
                        e.key().pos(),
                        "'" + e.key().value() + "' is not a setting of " + directive + " (" + String.join(", ", allowed)
                                + ")");
                return false;
            }
        }
        return true;
    }

    void ifThenElse(Pos pos, PNode value, List<PNode.Entry> settings, Dialogue dialogue, ScriptCompiler.Loop loop) {
        String cond = condition("$if", pos, value);
        if (cond == null || !onlySettings("$if", settings, List.of("then", "else"))) {
            return;
        }
        PNode then = setting(settings, "then");
        PNode otherwise = setting(settings, "else");
        PlanBuilder.Label elseLabel = script.plan.label();
        PlanBuilder.Label done = script.plan.label();
        script.plan.jumpIf("${!(" + cond + ")}", elseLabel, pos, "line " + pos.line() + ": $if " + cond);
        script.nestedSteps(then, dialogue.copy(), loop, false);
        if (otherwise != null) {
            script.plan.jump(done, pos, "line " + pos.line() + ": the end of then");
            script.plan.place(elseLabel);
            script.nestedSteps(otherwise, dialogue.copy(), loop, false);
            script.plan.place(done);
        } else {
            script.plan.place(elseLabel);
        }
    }

    void whileLoop(Pos pos, PNode value, List<PNode.Entry> settings, Dialogue dialogue, ScriptCompiler.Loop loop) {
        String cond = condition("$while", pos, value);
        if (cond == null || !onlySettings("$while", settings, List.of("do"))) {
            return;
        }
        PlanBuilder.Label top = script.plan.label();
        PlanBuilder.Label exit = script.plan.label();
        script.plan.place(top);
        script.plan.jumpIf("${!(" + cond + ")}", exit, pos, "line " + pos.line() + ": $while " + cond);
        script.nestedSteps(setting(settings, "do"), dialogue.copy(), new ScriptCompiler.Loop(exit, top), false);
        script.plan.jump(top, pos, "line " + pos.line() + ": $while again");
        script.plan.place(exit);
    }

    /**
     * {@code $for}: a number N counts 1..N; a list (or an expression giving one) gives its elements; a
     * mapping (or an expression written {@code {...}}) its keys and values. {@code as: {value, index}}
     * names the variables ({@code value} and {@code index} by default).
     */
    void forLoop(Pos pos, PNode value, List<PNode.Entry> settings, Dialogue dialogue, ScriptCompiler.Loop loop) {
        if (!onlySettings("$for", settings, List.of("do", "as"))) {
            return;
        }
        String valueName = "value";
        String indexName = "index";
        PNode as = setting(settings, "as");
        if (as instanceof PNode.Mapping m) {
            for (PNode.Entry e : m.entries()) {
                String name = e.value() instanceof PNode.Scalar s ? s.value() : "";
                if (!ScriptCompiler.NAME.matcher(name).matches()) {
                    problems.error(e.value().pos(), "'" + name + "' is not a variable name");
                    return;
                }
                switch (e.key().value()) {
                    case "value" -> valueName = name;
                    case "index", "key" -> indexName = name;
                    default -> {
                        problems.error(e.key().pos(), "$for's 'as' names 'value' and 'index'");
                        return;
                    }
                }
            }
        } else if (as != null) {
            problems.error(as.pos(), "$for's 'as' is a mapping: 'as: {value: item, index: i}'");
            return;
        }
        int n = ++loops;
        String items = "for" + n + "_items";
        String keys = "for" + n + "_keys";
        String i = "for" + n + "_i";
        ObjectNode start = JSON.objectNode();
        String length;
        String element;
        String index = "${" + i + "}";
        JsonNode count = value instanceof PNode.Scalar s ? Values.typed(s) : null;
        if (count != null && count.canConvertToInt() && count.isIntegralNumber()) {
            length = String.valueOf(count.asInt());
            element = "${" + i + " + 1}";
        } else {
            JsonNode source = source(pos, value);
            if (source == null) {
                return;
            }
            boolean object = value instanceof PNode.Mapping
                    || value instanceof PNode.Scalar s
                            && s.value().replace("?=", "").strip().startsWith("{");
            start.set(items, source);
            if (object) {
                start.put(keys, "${keys(" + items + ")}");
                length = "len(" + keys + ")";
                index = "${" + keys + "[" + i + "]}";
                element = "${" + items + "[" + keys + "[" + i + "]]}";
            } else {
                length = "len(" + items + ")";
                element = "${" + items + "[" + i + "]}";
            }
        }
        start.put(i, 0);
        script.plan.assign(start, pos, "line " + pos.line() + ": $for starts");
        PlanBuilder.Label top = script.plan.label();
        PlanBuilder.Label next = script.plan.label();
        PlanBuilder.Label exit = script.plan.label();
        script.plan.place(top);
        script.plan.jumpIf("${" + i + " >= " + length + "}", exit, pos, "line " + pos.line() + ": $for is done");
        ObjectNode current = JSON.objectNode();
        current.put(valueName, element);
        current.put(indexName, index);
        script.plan.assign(current, pos, "line " + pos.line() + ": $for: the next " + valueName);
        script.nestedSteps(setting(settings, "do"), dialogue.copy(), new ScriptCompiler.Loop(exit, next), false);
        script.plan.place(next);
        ObjectNode step = JSON.objectNode();
        step.put(i, "${" + i + " + 1}");
        script.plan.assign(step, pos, "line " + pos.line() + ": $for: the next element");
        script.plan.jump(top, pos, "line " + pos.line() + ": $for again");
        script.plan.place(exit);
    }

    /** What {@code $for} iterates over: a literal list or mapping, or an expression. */
    private JsonNode source(Pos pos, PNode value) {
        if (value instanceof PNode.Scalar s) {
            if (s.value().isBlank()) {
                problems.error(pos, "$for needs what to iterate: a number, a list or an expression");
                return null;
            }
            String source = s.value().startsWith("?=") ? s.value().substring(2) : s.value();
            String expr = script.templates.expression(source, s.pos());
            return expr == null ? null : TextNode.valueOf("${" + expr + "}");
        }
        if (value == null) {
            problems.error(pos, "$for needs what to iterate: a number, a list or an expression");
            return null;
        }
        return script.values.value(value);
    }

    void breakOrContinue(String name, Pos pos, PNode value, ScriptCompiler.Loop loop) {
        if (value != null && !(value instanceof PNode.Scalar s && s.value().isEmpty())) {
            problems.error(pos, name + " takes no value");
            return;
        }
        if (loop == null) {
            problems.error(pos, name + " is only allowed inside $while or $for");
            return;
        }
        script.plan.jump(name.equals("$break") ? loop.exit() : loop.next(), pos, "line " + pos.line() + ": " + name);
    }

    /**
     * {@code $match(cond)}: the first pattern that matches runs ({@code COND__} holds the condition; without one, the
     * result so far); {@code $match(cond, allMatches=true)} (also written as seed 004 shows it,
     * {@code $match(cond[, allMatches=true])}) runs every one that matches, in order. {@code _} runs when none
     * matched. The patterns are {@link MatchPatterns}; the names a pattern takes are assigned before its steps.
     */
    void match(PNode.Scalar key, PNode value, Dialogue dialogue, ScriptCompiler.Loop loop) {
        Pos pos = key.pos();
        String k = key.value();
        String cond;
        boolean allMatches = false;
        if (k.equals("$match")) {
            cond = Dialogue.LATEST;
        } else if (k.startsWith("$match(") && k.endsWith(")")) {
            String inner = k.substring(7, k.length() - 1);
            Matcher optional = OPTIONAL_ARGS.matcher(inner);
            if (optional.matches()) { // seed 004's notation of optional arguments: cond[, allMatches=false]
                inner = optional.group(1) + "," + optional.group(2);
            }
            List<String> args = Invocations.split(inner, ",");
            for (String option : args.subList(1, args.size())) {
                Matcher m = MATCH_OPTION.matcher(option.strip());
                if (!m.matches()) {
                    problems.error(pos, "'" + option.strip() + "' is not an option of $match (allMatches=, parallel=)");
                    return;
                }
                if (m.group(1).equals("allMatches")) {
                    allMatches = m.group(2).equals("true");
                } else if (m.group(2).equals("true")) {
                    problems.warning(pos, "$match's parallel=true runs the matching cases one after the other");
                }
            }
            cond = args.get(0).isBlank() ? Dialogue.LATEST : script.templates.expression(args.get(0), pos);
        } else {
            problems.error(pos, "write '$match(condition):' with the patterns beneath");
            return;
        }
        if (cond == null) {
            return;
        }
        if (!(value instanceof PNode.Mapping cases)) {
            problems.error(pos, "$match takes a mapping of patterns, each ':pattern: steps'");
            return;
        }
        MatchPatterns patterns = new MatchPatterns(script.templates, problems);
        List<String> tests = new ArrayList<>();
        List<Map<String, String>> bindings = new ArrayList<>();
        List<PNode> bodies = new ArrayList<>();
        PNode otherwise = null;
        for (PNode.Entry e : cases.entries()) {
            String pattern = e.key().value().strip();
            if (pattern.equals("_")) {
                otherwise = e.value();
                continue;
            }
            if (!pattern.startsWith(":")) {
                problems.error(e.key().pos(), "a $match pattern starts with ':' (or is '_', otherwise)");
                return;
            }
            Map<String, String> names = new LinkedHashMap<>();
            String test = patterns.test(
                    pattern.substring(1).strip(), "COND__", names, e.key().pos());
            if (test == null) {
                return;
            }
            tests.add(test);
            bindings.add(names);
            bodies.add(e.value());
        }
        ObjectNode start = JSON.objectNode();
        start.put("COND__", "${" + cond + "}");
        if (allMatches) {
            start.put("MATCHED__", false);
        }
        script.plan.assign(start, pos, "line " + pos.line() + ": $match " + cond);
        PlanBuilder.Label done = script.plan.label();
        for (int i = 0; i < tests.size(); i++) {
            PlanBuilder.Label next = script.plan.label();
            script.plan.jumpIf(
                    "${!(" + tests.get(i) + ")}", next, pos, "line " + pos.line() + ": $match case " + (i + 1));
            ObjectNode taken = JSON.objectNode();
            bindings.get(i).forEach((name, expr) -> taken.put(name, "${" + expr + "}"));
            if (allMatches) {
                taken.put("MATCHED__", true);
            }
            if (!taken.isEmpty()) {
                script.plan.assign(taken, pos, "line " + pos.line() + ": case " + (i + 1) + " matched");
            }
            script.nestedSteps(bodies.get(i), dialogue.copy(), loop, false);
            if (!allMatches) {
                script.plan.jump(done, pos, "line " + pos.line() + ": the end of case " + (i + 1));
            }
            script.plan.place(next);
        }
        if (otherwise != null) {
            if (allMatches) {
                script.plan.jumpIf("${MATCHED__}", done, pos, "line " + pos.line() + ": a case matched");
            }
            script.nestedSteps(otherwise, dialogue.copy(), loop, false);
        }
        script.plan.place(done);
    }
}
