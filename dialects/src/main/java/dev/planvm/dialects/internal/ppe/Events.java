package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A script's events, {@code $on}, {@code $once}, {@code $off} and {@code $emit}, with expression callbacks
 * ({@code callback: "?=expr"}), resolved when the script compiles. A listener is registered where its step is, at
 * the top level of the script (never in a branch or a loop), so the listeners an {@code $emit} reaches are the ones
 * written before it; each becomes instructions at the {@code $emit}: its parameters {@code event} ({@code {type}}),
 * {@code arg1} (the first of {@code args}) and {@code args} (the others) are set, then its expression. As in the
 * reference (events-ex's {@code emitAsync}), the last listener's value is the result; an event nobody listens to
 * leaves the result as it was. A {@code $once} listener is guarded by a flag so it runs once, in loops too.
 * Function callbacks (a name, {@code !fn}) need a JavaScript engine and are refused.
 */
final class Events {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Pattern EVENT_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.:-]{0,63}");
    private static final Pattern SPREAD = Pattern.compile("\\.\\.\\.\\s*arg1\\b\\s*(,?)");
    static final String EVENT = "EVENT";
    static final String ARG1 = "EVENT_ARG1";
    static final String ARGS = "EVENT_ARGS";
    static final String RESULT = "EVENT_RESULT";
    static final String FIRED = "EVENT_FIRED";

    /** A registered listener; {@code flag} names its run-once flag ({@code $once}), else null. */
    private record Listener(String event, String callback, String flag, Pos pos) {}

    private final ScriptCompiler script;
    private final Problems problems;
    private final List<Listener> listeners = new ArrayList<>();
    private final List<Listener> emitted = new ArrayList<>();
    private int onces;

    Events(ScriptCompiler script) {
        this.script = script;
        this.problems = script.problems;
    }

    /** {@code $on}, {@code $once} or {@code $off}; {@code topLevel} when the step is in no branch or loop. */
    void listen(String directive, Pos pos, PNode value, boolean topLevel) {
        if (!topLevel) {
            problems.error(
                    pos,
                    directive + " is supported at the top level of a script, not in a branch or a loop: planvm"
                            + " resolves listeners when the script compiles");
            return;
        }
        if (!onlyKeys(directive, value, java.util.Set.of("event", "callback"))) {
            return;
        }
        PNode.Scalar event = setting(directive, pos, value, "event");
        PNode.Scalar callback = setting(directive, pos, value, "callback");
        if (event == null || callback == null || !eventName(event)) {
            return;
        }
        if (!callback.value().startsWith("?=")) {
            problems.error(
                    callback.pos(),
                    "an event callback is an expression ('?=...') in planvm: function callbacks ('" + callback.value()
                            + "') need a JavaScript engine");
            return;
        }
        if (directive.equals("$off")) {
            boolean removed = listeners.removeIf(
                    l -> l.event().equals(event.value()) && l.callback().equals(callback.value()));
            if (!removed) {
                problems.error(callback.pos(), "$off: no listener of '" + event.value() + "' has this callback");
            }
            return;
        }
        String flag = null;
        if (directive.equals("$once")) {
            flag = "EVENT_ONCE_" + ++onces;
            ObjectNode unfired = JSON.objectNode();
            unfired.put(flag, false);
            script.plan.prologueAssign(unfired, pos, "line " + pos.line() + ": the $once listener has not run yet");
        }
        listeners.add(new Listener(event.value(), callback.value(), flag, callback.pos()));
    }

    /** {@code $emit: {event: NAME, args: value or [values]}}: the listeners written before it, in order. */
    void emit(Pos pos, PNode value) {
        if (!onlyKeys("$emit", value, java.util.Set.of("event", "args"))) {
            return;
        }
        PNode.Scalar event = setting("$emit", pos, value, "event");
        if (event == null || !eventName(event)) {
            return;
        }
        PNode.Entry argsEntry = ((PNode.Mapping) value)
                .entries().stream()
                        .filter(e -> e.key().value().equals("args"))
                        .findFirst()
                        .orElse(null);
        List<JsonNode> args = new ArrayList<>();
        if (argsEntry != null) {
            JsonNode v = script.values.value(argsEntry.value());
            if (v == null) {
                return;
            }
            if (v.isArray()) {
                v.forEach(args::add);
            } else {
                args.add(v);
            }
        }
        List<Listener> reached =
                listeners.stream().filter(l -> l.event().equals(event.value())).toList();
        if (reached.isEmpty()) {
            return; // nobody listens: the result stays as it was
        }
        JsonNode arg1 = args.isEmpty() ? JSON.nullNode() : args.get(0);
        List<String> expressions = new ArrayList<>();
        for (Listener l : reached) {
            String expression = expression(l, arg1);
            if (expression == null) {
                return;
            }
            expressions.add(expression);
        }
        ObjectNode parameters = JSON.objectNode();
        parameters.putObject(EVENT).put("type", event.value());
        parameters.set(ARG1, arg1);
        ArrayNode rest = parameters.putArray(ARGS);
        args.stream().skip(1).forEach(rest::add);
        boolean once = reached.stream().anyMatch(l -> l.flag() != null);
        if (once) {
            parameters.put(FIRED, false);
        }
        String line = "line " + pos.line() + ": $emit " + event.value();
        script.plan.assign(parameters, pos, line + ": the listeners' parameters");
        for (int i = 0; i < reached.size(); i++) {
            Listener l = reached.get(i);
            PlanBuilder.Label skip = null;
            if (l.flag() != null) {
                skip = script.plan.label();
                script.plan.jumpIf("${" + l.flag() + "}", skip, pos, line + ": its $once listener ran already");
            }
            ObjectNode run = JSON.objectNode();
            run.put(RESULT, "${" + expressions.get(i) + "}");
            if (once) {
                run.put(FIRED, true);
            }
            if (l.flag() != null) {
                run.put(l.flag(), true);
            }
            script.plan.assign(
                    run, pos, line + ": the listener of line " + l.pos().line());
            if (skip != null) {
                script.plan.place(skip);
            }
        }
        PlanBuilder.Label done = script.plan.label();
        if (once) {
            script.plan.jumpIf("${!" + FIRED + "}", done, pos, line + ": no listener ran, the result stays");
        }
        ObjectNode latest = JSON.objectNode();
        latest.put(Dialogue.LATEST, "${" + RESULT + "}");
        script.plan.assign(latest, pos, line + ": the last listener's value is the result");
        if (once) {
            script.plan.place(done);
        }
        script.resultChanged();
        emitted.addAll(reached);
    }

    /**
     * A listener's callback as a planvm expression over the event's parameters; {@code ...arg1} in an object
     * is spelled out from the mapping {@code $emit} passes. Null after a problem (reported).
     */
    private String expression(Listener l, JsonNode arg1) {
        String source = l.callback().substring(2);
        Matcher spread = SPREAD.matcher(source);
        StringBuilder spelled = new StringBuilder();
        while (spread.find()) {
            if (!arg1.isObject() && !arg1.isNull()) {
                problems.error(
                        l.pos(),
                        "'...arg1' spreads the mapping $emit passes: this $emit passes no mapping as its first"
                                + " argument");
                return null;
            }
            List<String> fields = new ArrayList<>();
            arg1.properties().forEach(e -> {
                if (!Pattern.compile("[{,]\\s*['\"]?" + Pattern.quote(e.getKey()) + "['\"]?\\s*:")
                        .matcher(source)
                        .find()) {
                    fields.add(Templates.quote(e.getKey()) + ": arg1[" + Templates.quote(e.getKey()) + "]");
                }
            });
            String replacement = fields.isEmpty() ? "" : String.join(", ", fields) + spread.group(1);
            spread.appendReplacement(spelled, Matcher.quoteReplacement(replacement));
        }
        spread.appendTail(spelled);
        String translated = script.templates.expression(spelled.toString(), l.pos());
        if (translated == null) {
            return null;
        }
        return renamed(translated);
    }

    /**
     * {@code expression} with the parameters {@code event}, {@code arg1}, {@code args} read from their run variables;
     * text in quotes, a field after {@code .} and an object key ({@code event: ...}) stay as written.
     */
    static String renamed(String expression) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < expression.length()) {
            char c = expression.charAt(i);
            if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < expression.length() && expression.charAt(j) != c) {
                    j += expression.charAt(j) == '\\' ? 2 : 1;
                }
                j = Math.min(j + 1, expression.length());
                out.append(expression, i, j);
                i = j;
            } else if (Character.isLetter(c) || c == '_' || c == '$') {
                int j = i;
                while (j < expression.length()
                        && (Character.isLetterOrDigit(expression.charAt(j)) || expression.charAt(j) == '_')) {
                    j++;
                }
                String word = expression.substring(i, j);
                String before = out.toString().stripTrailing();
                String after = expression.substring(j).stripLeading();
                boolean field = before.endsWith(".") || after.startsWith(":");
                out.append(
                        field
                                ? word
                                : switch (word) {
                                    case "event" -> EVENT;
                                    case "arg1" -> ARG1;
                                    case "args" -> ARGS;
                                    default -> word;
                                });
                i = j;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** After the script compiled: a listener no {@code $emit} reached is never run (nothing to compile). */
    void finish() {
        for (Listener l : listeners) {
            if (!emitted.contains(l)) {
                problems.warning(l.pos(), "no $emit of '" + l.event() + "' follows this listener: it never runs");
            }
        }
    }

    private boolean onlyKeys(String directive, PNode value, java.util.Set<String> keys) {
        if (value instanceof PNode.Mapping map) {
            for (PNode.Entry e : map.entries()) {
                if (!keys.contains(e.key().value())) {
                    problems.error(e.key().pos(), "'" + e.key().value() + "' is not a setting of " + directive);
                    return false;
                }
            }
        }
        return true;
    }

    private PNode.Scalar setting(String directive, Pos pos, PNode value, String key) {
        if (!(value instanceof PNode.Mapping map)) {
            problems.error(pos, directive + " takes a mapping: '" + directive + ": {event: NAME, ...}'");
            return null;
        }
        for (PNode.Entry e : map.entries()) {
            if (e.key().value().equals(key)) {
                if (e.value() instanceof PNode.Scalar s && script.values.refuseTag(s)) {
                    return s;
                }
                if (e.value().tag() == null) {
                    problems.error(e.value().pos(), directive + "'s " + key + " is a text");
                }
                return null;
            }
        }
        problems.error(pos, directive + " needs '" + key + ":'");
        return null;
    }

    private boolean eventName(PNode.Scalar event) {
        if (!EVENT_NAME.matcher(event.value()).matches()) {
            problems.error(event.pos(), "'" + event.value() + "' is not an event name (letters, digits, _ . : -)");
            return false;
        }
        return true;
    }
}
