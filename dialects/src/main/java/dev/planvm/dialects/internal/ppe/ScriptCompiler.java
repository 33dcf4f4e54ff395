package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Walks a script's steps and writes their instructions, as the reference engine runs them: turns add to
 * the conversation ({@link Dialogue}, a run variable), AI replacements ({@code [[VAR]]}, {@code $AI}) become
 * {@code llm_generate} calls that send it, directives become assigns, jumps and calls ({@link Directives}).
 * Every step with a result puts it in {@code LatestResult}; when the script ends (or {@code $ret} ends it) the AI
 * answers by itself when there are messages and no AI call was made or the last message is the user's
 * ({@code autoRunLLMIfPromptAvailable}), and {@code final_answer} is {@code LatestResult}.
 */
final class ScriptCompiler {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern BARE_DIRECTIVE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern CALL_DIRECTIVE =
            Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)\\((.*)\\)", Pattern.DOTALL);
    private static final Pattern PIPE_TARGET = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*(\\(.*\\))?", Pattern.DOTALL);
    private static final Set<String> ROLES = Set.of("system", "user", "assistant");

    final Problems problems;
    final Templates templates;
    final Values values;
    final PlanBuilder plan;
    final FrontMatter front;
    final PlanBuilder.Label end;
    /** The conversation (a run variable): branches and loops add to it. */
    final Dialogue dialogue;

    private final Directives directives;
    /** The script's event listeners ({@code $on}), run where an {@code $emit} is. */
    final Events events;

    private final Invocations invocations;
    /** Seed 004's group chat ({@code roles}, {@code user[@role]:}). */
    final GroupChat group;
    /** Seed 004's {@code [[/RegExp/:VAR]]} in messages. */
    private final RegexReplacement regexes;

    private final TurnBlocks blocks = new TurnBlocks();
    /** How many {@code {% for %}} loops turns have had (names {@code FOR_1}, ...). */
    private int loops;
    /** The result so far, {@code ${LatestResult}}, as a chain passes it on (a new node when a step sets it). */
    JsonNode result = TextNode.valueOf("${" + Dialogue.LATEST + "}");
    /**
     * The JSON Schema {@link #result} is known to fit ({@code output} of the script a chain called, the
     * object an AI answer was asked for), while {@link #result} is still {@link #resultTyped}; else null.
     */
    JsonNode resultSchema;
    /** The result {@link #resultSchema} describes (by identity: a later result has no known schema). */
    JsonNode resultTyped;
    /** The plan-tool document of each script this one may call, by name (imports of imports too). */
    java.util.Map<String, JsonNode> importedPlans = java.util.Map.of();
    /**
     * Finds a script that is not imported by its name ({@link Library}), compiles it and offers it as a plan tool:
     * its plan-tool document, JSON null when it does not compile (reported), null when there is none.
     */
    java.util.function.BiFunction<String, Pos, JsonNode> finder = (name, pos) -> null;
    /** Whether a jump to the end was written. */
    boolean endUsed;
    /** Whether the instructions that put the {@code output} input's schema in words are written. */
    private boolean outputWords;

    /** Whether the AI answers by itself at the end when messages wait ({@code autoRunLLMIfPromptAvailable}). */
    boolean autoAnswer = true;

    /** Where a {@code $break} and a {@code $continue} go. */
    record Loop(PlanBuilder.Label exit, PlanBuilder.Label next) {}

    ScriptCompiler(Problems problems, Templates templates, Values values, PlanBuilder plan, FrontMatter front) {
        this.problems = problems;
        this.templates = templates;
        this.values = values;
        this.plan = plan;
        this.front = front;
        this.end = plan.label();
        this.dialogue = new Dialogue(plan);
        values.invocations = this::turnText;
        String words = SchemaText.of(front.output);
        JsonNode format = front.llmParams.get("response_format");
        if (words != null && format != null && front.autoBuildOutputPrompt) {
            dialogue.hint(SchemaText.hint(words), SchemaText.names(front.output));
        }
        this.events = new Events(this);
        this.directives = new Directives(this);
        this.invocations = new Invocations(this);
        this.regexes = new RegexReplacement(plan, templates, problems);
        this.group = new GroupChat(this);
    }

    /** The plan-tool names of the scripts this one imports. */
    java.util.Set<String> importedScripts() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        front.imports.forEach(i -> names.add(i.name()));
        return names;
    }

    /**
     * Whether {@code name} is a script this one may call: imported, or found by name (then it is offered too); null
     * when there is none, JSON null when it is found but does not compile (a warning says why).
     */
    JsonNode callable(String name, Pos pos) {
        if (importedScripts().contains(name) || importedPlans.containsKey(name)) {
            return com.fasterxml.jackson.databind.node.BooleanNode.TRUE;
        }
        return finder.apply(name, pos);
    }

    /** Compiles the script's steps (the document after the front matter, in the reference's list form). */
    void compile(PNode steps, Pos endPos) {
        plan.prologueAssign(dialogue.initial(), new Pos(1, 1), "line 1: no messages, no result yet");
        steps(steps, dialogue, null, true);
        events.finish();
        plan.place(end);
        if (autoAnswer && dialogue.hasTurns()) {
            PlanBuilder.Label done = plan.label();
            plan.jumpIf(
                    "${!(" + Dialogue.autoAnswer() + ")}",
                    done,
                    endPos,
                    "line " + endPos.line() + ": the AI answers by itself only when messages wait");
            ai("RESPONSE", JSON.objectNode(), dialogue, "", endPos, "the AI answers the messages that wait");
            if (!front.generationPrompt) {
                ObjectNode continued = JSON.objectNode();
                String last = Dialogue.MESSAGES + "[len(" + Dialogue.MESSAGES + ") - 1]";
                continued.put(
                        Dialogue.LATEST,
                        "${(" + last + ".role == 'assistant' && " + last + ".content || '') + RESPONSE}");
                plan.assign(
                        continued, endPos, "line " + endPos.line() + ": the answer continues a last assistant turn");
            }
            dialogue.addAnswer("RESPONSE", endPos);
            plan.place(done);
        }
        ObjectNode values = JSON.objectNode();
        values.put("final_answer", "${" + Dialogue.LATEST + "}");
        plan.assign(values, endPos, "line " + endPos.line() + ": the script's result");
    }

    /** The result so far changed: a chain after it passes on {@code ${LatestResult}} again (of unknown type). */
    void resultChanged() {
        result = TextNode.valueOf("${" + Dialogue.LATEST + "}");
    }

    /** How many branches and loop bodies enclose the steps being compiled (0: the script's top level). */
    int depth;

    /** The steps of a branch or a loop body ({@link #steps}). */
    void nestedSteps(PNode node, Dialogue dialogue, Loop loop, boolean atEnd) {
        depth++;
        try {
            steps(node, dialogue, loop, atEnd);
        } finally {
            depth--;
        }
    }

    /**
     * The steps of {@code node}: a list of steps, a mapping of steps in order, or one bare string.
     *
     * @param atEnd whether the last of these steps is the last step of the script
     */
    void steps(PNode node, Dialogue dialogue, Loop loop, boolean atEnd) {
        if (node == null || problems.full() || plan.overflow() || !values.refuseTag(node)) {
            return;
        }
        if (node instanceof PNode.Scalar s) {
            bare(s, dialogue, loop, atEnd);
        } else if (node instanceof PNode.Sequence seq) {
            for (int i = 0; i < seq.items().size(); i++) {
                PNode item = seq.items().get(i);
                boolean last = atEnd && i == seq.items().size() - 1;
                if (item instanceof PNode.Scalar pipe && pipe.value().strip().equals("$pipe")) {
                    PNode next = i + 1 < seq.items().size() ? seq.items().get(i + 1) : null;
                    if (!(next instanceof PNode.Scalar target
                            && target.value().strip().startsWith("$")
                            && PIPE_TARGET
                                    .matcher(target.value().strip().substring(1))
                                    .matches())) {
                        problems.error(
                                pipe.pos(),
                                "$pipe passes the result to the next step: write '$name' or '$name(args)' after it");
                        return;
                    }
                    pipe(
                            target.value().strip().substring(1),
                            target.pos(),
                            dialogue,
                            loop,
                            atEnd && i + 2 == seq.items().size());
                    i++;
                    continue;
                }
                if (item instanceof PNode.Mapping m && values.refuseTag(m)) {
                    entries(m.entries(), false, dialogue, loop, last);
                } else {
                    steps(item, dialogue, loop, last);
                }
            }
        } else {
            entries(((PNode.Mapping) node).entries(), true, dialogue, loop, atEnd);
        }
    }

    /**
     * Steps written as mapping entries. A directive takes the entries after it that are its settings
     * ({@code then}, {@code else}, {@code do}, {@code as}); in a list item every other key is one.
     */
    private void entries(List<PNode.Entry> entries, boolean topLevel, Dialogue dialogue, Loop loop, boolean atEnd) {
        int i = 0;
        while (i < entries.size()) {
            PNode.Entry e = entries.get(i);
            String key = e.key().value();
            int j = i + 1;
            if (key.startsWith("$")) {
                List<PNode.Entry> settings = new ArrayList<>();
                while (j < entries.size() && isSetting(key, entries.get(j).key().value(), topLevel)) {
                    settings.add(entries.get(j));
                    j++;
                }
                directives.directive(e.key(), e.value(), settings, dialogue, loop, atEnd && j == entries.size());
            } else if (ROLES.contains(key)) {
                turn(key, e.key().pos(), e.value(), dialogue);
            } else if (group.handles(key)) {
                group.step(e.key(), e.value(), dialogue);
            } else if (e.value() instanceof PNode.Scalar v && v.value().strip().equals("$tool")) {
                // seed 004's 'toolId: $tool': a call of the tool toolId
                PNode.Mapping params = new PNode.Mapping(
                        List.of(new PNode.Entry(
                                new PNode.Scalar("name", e.key().pos(), true, null),
                                new PNode.Scalar(key, e.key().pos(), false, null))),
                        e.key().pos(),
                        null);
                directives.directive(
                        new PNode.Scalar("$tool", v.pos(), true, null),
                        params,
                        List.of(),
                        dialogue,
                        loop,
                        atEnd && j == entries.size());
            } else {
                unknownKey(e.key());
            }
            i = j;
        }
    }

    private static boolean isSetting(String directive, String key, boolean topLevel) {
        if (!topLevel) {
            return !key.startsWith("$") && !ROLES.contains(key);
        }
        String name = directive.contains("(") ? directive.substring(0, directive.indexOf('(')) : directive;
        return switch (name) {
            case "$if" -> key.equals("then") || key.equals("else");
            case "$while" -> key.equals("do");
            case "$for" -> key.equals("do") || key.equals("as");
            default -> false;
        };
    }

    private void unknownKey(PNode.Scalar key) {
        String k = key.value();
        if (k.equals("then") || k.equals("else") || k.equals("do") || k.equals("as")) {
            problems.error(key.pos(), "'" + k + ":' belongs to a directive ($if, $while, $for) just before it");
        } else {
            problems.error(
                    key.pos(),
                    "'" + k + "' is not a dialogue role (system, user, assistant), a directive ($if, $set, ...) or"
                            + " one of the script's group-chat 'roles'");
        }
    }

    /** A bare string: a directive ({@code $AI}, {@code $print(x)}), a refused chain, or a user turn. */
    private void bare(PNode.Scalar s, Dialogue dialogue, Loop loop, boolean atEnd) {
        String text = s.value().strip();
        if (s.plain() && text.isEmpty()) {
            return; // an empty item
        }
        if (text.startsWith("->")) {
            invocations.chain(text, s.pos(), dialogue, loop, atEnd, directives);
            return;
        }
        if (text.equals("---") || text.equals("***")) {
            dialogue.initDone(false, s.pos()); // a '- ---' step in a list: a new dialogue
            return;
        }
        if (text.equals("$initDone") || text.equals("$initDone(force=true)")) {
            dialogue.initDone(text.endsWith("(force=true)"), s.pos());
            return;
        }
        if (text.startsWith("$|")) {
            if (!PIPE_TARGET.matcher(text.substring(2)).matches()) {
                problems.error(s.pos(), "a pipe is '$|name' or '$|name(args)': a directive or a script");
                return;
            }
            pipe(text.substring(2), s.pos(), dialogue, loop, atEnd);
            return;
        }
        Matcher bare = BARE_DIRECTIVE.matcher(text);
        if (bare.matches()) {
            directives.directive(new PNode.Scalar(text, s.pos(), true, null), null, List.of(), dialogue, loop, atEnd);
            return;
        }
        Matcher call = CALL_DIRECTIVE.matcher(text);
        if (call.matches()) {
            directives.call(call.group(1), call.group(2), s.pos(), dialogue, loop, atEnd);
            return;
        }
        if (text.contains(" -> ")) {
            problems.error(
                    s.pos(),
                    "a chain ('->') starts a step of its own: write the step, then '-> script(args)' as the next"
                            + " step");
            return;
        }
        userTurn(s, dialogue);
    }

    /**
     * A pipe ({@code $|name}, or {@code $pipe} then {@code $name}): the result so far passes to {@code name}, as a
     * chain passes it ({@code -> $print}, {@code -> script}): a directive a chain takes ({@code print}, {@code echo},
     * {@code ret}, {@code set}) or else a script.
     */
    private void pipe(String target, Pos pos, Dialogue dialogue, Loop loop, boolean atEnd) {
        String name =
                target.contains("(") ? target.substring(0, target.indexOf('(')).strip() : target.strip();
        boolean directive = Set.of("print", "echo", "ret", "return", "set").contains(name);
        invocations.chain("-> " + (directive ? "$" : "") + target, pos, dialogue, loop, atEnd, directives);
    }

    private void userTurn(PNode.Scalar s, Dialogue dialogue) {
        String content = turnText(s.value(), s.pos());
        if (content != null) {
            dialogue.add("user", content, s.pos());
            resultChanged();
        }
    }

    /**
     * A user or system turn's text as a template; each {@code [[@script(args)]]} in it calls the imported
     * script first and shows its result. Null after a problem.
     */
    String turnText(String raw, Pos pos) {
        if (raw.contains("{{output}}")
                && !outputWords
                && templates.constants.outputWords() == null
                && front.inputs != null
                && front.inputs.path("properties").has("output")) {
            outputWords = true;
            OutputWords.emit(plan, pos);
        }
        templates.blocks = blocks;
        try {
            return turnTemplate(raw, pos);
        } finally {
            templates.blocks = null;
        }
    }

    private String turnTemplate(String raw, Pos pos) {
        if (raw.startsWith("~")
                || raw.startsWith("#:")
                || raw.startsWith("#+")
                || !raw.contains("[[@") && !raw.contains("[[/")) {
            return templates.text(raw, pos);
        }
        String body = raw.startsWith("!") || raw.startsWith("#") ? raw.substring(1) : raw;
        StringBuilder content = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            int open = nextInvocation(body, i);
            int close = open < 0 ? -1 : body.indexOf("]]", open + 3);
            String before = body.substring(i, open < 0 || close < 0 ? body.length() : open);
            int bracket = Templates.nextBracket(before, 0);
            String translated = bracket >= 0 && before.indexOf("]]", bracket) > 0
                    ? templates.text(before.substring(bracket), pos) // refused: [[VAR]] outside an assistant turn
                    : templates.interpolate(before, pos);
            if (translated == null) {
                return null;
            }
            content.append(translated);
            if (open < 0 || close < 0) {
                break;
            }
            String shown = body.startsWith("[[/", open)
                    ? regexes.replacement(body.substring(open + 2, close), pos)
                    : invocations.replacement(body.substring(open + 2, close), pos);
            if (shown == null) {
                return null;
            }
            content.append(shown);
            i = close + 2;
        }
        return content.toString();
    }

    /** The next {@code [[@} or {@code [[/} outside Jinja blocks (those inside run with their branch). */
    private static int nextInvocation(String body, int from) {
        int at = Templates.nextBracket(body, from);
        while (at >= 0 && !body.startsWith("[[@", at) && !body.startsWith("[[/", at)) {
            at = Templates.nextBracket(body, at + 2);
        }
        return at;
    }

    private void turn(String role, Pos pos, PNode value, Dialogue dialogue) {
        if (!(value instanceof PNode.Scalar s) || !values.refuseTag(value)) {
            if (value.tag() == null) {
                problems.error(value.pos(), "a '" + role + ":' turn is text, not a " + kind(value));
            }
            return;
        }
        if (!role.equals("assistant")) {
            String content = turnText(s.value(), s.pos());
            if (content != null) {
                dialogue.add(role, content, s.pos());
                group.turn(role, s.pos());
                resultChanged();
            }
            return;
        }
        assistant(s, dialogue);
    }

    static String kind(PNode node) {
        return node instanceof PNode.Mapping ? "mapping" : node instanceof PNode.Sequence ? "list" : "scalar";
    }

    /** An assistant turn: its text, with an AI call for each {@code [[VAR]]}, given the answers before it. */
    private void assistant(PNode.Scalar s, Dialogue dialogue) {
        templates.blocks = blocks;
        try {
            assistantTurn(s, dialogue);
        } finally {
            templates.blocks = null;
        }
    }

    private void assistantTurn(PNode.Scalar s, Dialogue dialogue) {
        String raw = s.value();
        if (raw.startsWith("~")) {
            dialogue.add("assistant", Templates.literal(raw.substring(1)), s.pos());
            resultChanged();
            return;
        }
        String body = raw.startsWith("!") || raw.startsWith("#") ? raw.substring(1) : raw;
        if (body.contains("{{")) {
            // the reference renders a turn with a template as text: its [[...]] are not answered
            String text = templates.interpolate(body.replace("[[", "\u0001").replace("]]", "\u0002"), s.pos());
            if (text != null) {
                dialogue.add("assistant", text.replace("\u0001", "[[").replace("\u0002", "]]"), s.pos());
                resultChanged();
            }
            return;
        }
        StringBuilder content = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            int open = Templates.nextBracket(body, i);
            int close = open < 0 ? -1 : body.indexOf("]]", open + 2);
            String before =
                    templates.interpolate(body.substring(i, open < 0 || close < 0 ? body.length() : open), s.pos());
            if (before == null) {
                return;
            }
            content.append(before);
            if (open < 0 || close < 0) {
                break;
            }
            String inner = body.substring(open + 2, close);
            if (inner.strip().startsWith("@")) {
                String shown = invocations.replacement(inner, s.pos());
                if (shown == null) {
                    return;
                }
                content.append(shown);
                i = close + 2;
                continue;
            }
            Placeholder p = Placeholder.parse(inner, s.pos(), problems);
            if (p == null) {
                return;
            }
            p.params().properties().forEach(param -> {
                String v = param.getValue().asText();
                if (v.startsWith("${") && v.endsWith("}")) {
                    templates.reads().add(v.substring(2, v.length() - 1)); // [[V:temperature]] reads temperature
                }
            });
            JsonNode format = p.choices() == null ? null : Placeholder.enumSchema(p.choices());
            ObjectNode params = p.params();
            if (format != null) {
                params.set("response_format", format);
            }
            ai(p.variable(), params, dialogue, content.toString(), s.pos(), "the AI answers [[" + p.variable() + "]]");
            content.append("${").append(p.variable()).append('}');
            i = close + 2;
        }
        dialogue.add("assistant", content.toString(), s.pos());
        resultChanged();
    }

    /** The most tokens an answer may have when the script does not say: PPE's default. */
    static final int DEFAULT_MAX_TOKENS = 2048;

    /**
     * An {@code llm_generate} call answering the conversation into {@code variable}; the answer is then the result
     * so far.
     *
     * @param params what this call sets (temperature, max_tokens, model, response_format, stop), over the front
     *     matter's
     * @param begun the assistant turn's text before the answer (a template; empty: none)
     */
    void ai(String variable, ObjectNode params, Dialogue dialogue, String begun, Pos pos, String objective) {
        ObjectNode request = JSON.objectNode();
        request.set("messages", dialogue.messages(begun, pos));
        for (String key : List.of("response_format", "temperature", "max_tokens", "model", "stop")) {
            JsonNode value = params.has(key) ? params.get(key) : front.llmParams.get(key);
            if (value != null && !value.isNull()) {
                request.set(key, value);
            }
        }
        JsonNode asked = request.get("response_format");
        if (asked != null
                && asked.isTextual()
                && asked.asText().equals("json")
                && front.output == null
                && front.inputs != null
                && front.inputs.path("properties").has("output")) {
            request.put("response_format", "${output != null && output || 'json'}"); // the schema the caller gives
        }
        JsonNode max = request.get("max_tokens");
        if (max == null) {
            request.put("max_tokens", DEFAULT_MAX_TOKENS);
        } else if (max.isNumber() && max.asDouble() <= 0) {
            request.remove("max_tokens"); // the reference's "no limit"
        } else if (max.isTextual() && max.asText().matches("\\$\\{[A-Za-z_][A-Za-z0-9_]*}")) {
            String v = max.asText().substring(2, max.asText().length() - 1);
            request.put("max_tokens", "${" + v + " != null && " + v + " > 0 && " + v + " || null}");
        }
        plan.calling("llm_generate", request, variable, pos, "line " + pos.line() + ": " + objective);
        dialogue.answered(variable, pos);
        result = TextNode.valueOf("${" + variable + "}");
        JsonNode format = request.get("response_format");
        if (format != null && "object".equals(format.path("type").asText())) {
            typed(format);
        }
    }

    /** The current {@link #result} fits {@code schema}. */
    void typed(JsonNode schema) {
        resultSchema = schema;
        resultTyped = result;
    }

    /** The schema the current {@link #result} is known to fit, or null. */
    JsonNode resultSchema() {
        return result != null && result == resultTyped ? resultSchema : null;
    }

    /** The statements of a turn's template that are instructions before the turn. */
    private final class TurnBlocks implements Templates.Blocks {

        /** Where each loop (by its text variable) starts again and ends. */
        private final java.util.Map<String, PlanBuilder.Label[]> labels = new java.util.HashMap<>();

        @Override
        public String invocation(String inner, String guard, Pos pos) {
            return invocations.called(inner, guard, pos);
        }

        @Override
        public Templates.Loop loopStart(String name, String list, String guard, Pos pos) {
            loops++;
            String text = "FOR_" + loops;
            String index = text + "_INDEX";
            String items = text + "_LIST";
            String where = "line " + pos.line() + ": {% for " + name + " %}";
            PlanBuilder.Label top = plan.label();
            PlanBuilder.Label exit = plan.label();
            if (guard != null) {
                plan.jumpIf("${!(" + guard + ")}", exit, pos, where + " runs only when its Jinja branch is taken");
            }
            ObjectNode start = JSON.objectNode();
            start.put(items, "${" + list + "}");
            start.put(text, "");
            start.put(index, 0);
            plan.assign(start, pos, where + ": the list, no text yet");
            plan.place(top);
            plan.jumpIf("${" + index + " >= len(" + items + ")}", exit, pos, where + ": after the last element");
            ObjectNode element = JSON.objectNode();
            element.put(name, "${" + items + "[" + index + "]}");
            plan.assign(element, pos, where + ": the next element");
            ObjectNode loop = JSON.objectNode();
            loop.put("index", "${" + index + " + 1}");
            loop.put("index0", "${" + index + "}");
            loop.put("first", "${" + index + " == 0}");
            loop.put("last", "${" + index + " == len(" + items + ") - 1}");
            loop.put("length", "${len(" + items + ")}");
            labels.put(text, new PlanBuilder.Label[] {top, exit});
            return new Templates.Loop(text, text + "_LOOP", element, loop);
        }

        @Override
        public void loopEnd(Templates.Loop loop, String body, Pos pos) {
            String index = loop.text() + "_INDEX";
            ObjectNode add = JSON.objectNode();
            add.put(loop.text(), "${" + loop.text() + " + " + body + "}");
            add.put(index, "${" + index + " + 1}");
            plan.assign(add, pos, "line " + pos.line() + ": {% for %}: the text of this element");
            PlanBuilder.Label[] at = labels.remove(loop.text());
            plan.jump(at[0], pos, "line " + pos.line() + ": {% endfor %}: the next element");
            plan.place(at[1]);
        }

        @Override
        public void set(String name, String expression, String guard, Pos pos) {
            PlanBuilder.Label skip = null;
            String where = "line " + pos.line() + ": {% set " + name + " %}";
            if (guard != null) {
                skip = plan.label();
                plan.jumpIf("${!(" + guard + ")}", skip, pos, where + " runs only when its Jinja branch is taken");
            }
            ObjectNode values = JSON.objectNode();
            values.put(name, "${" + expression + "}");
            plan.assign(values, pos, where);
            if (skip != null) {
                plan.place(skip);
            }
        }
    }

    /** A step that fails when it runs, with {@code message}: what the reference also finds only when it runs. */
    void failWhenRun(String message, Pos pos) {
        endUsed = true;
        plan.jumpIf(
                "${" + Templates.quote("line " + pos.line() + ": " + message) + "}",
                end,
                pos,
                "line " + pos.line() + ": " + message + " (its condition is text, so the step fails)");
    }

    /** A jump to the end of the script. */
    void jumpToEnd(Pos pos, String objective) {
        endUsed = true;
        plan.jump(end, pos, "line " + pos.line() + ": " + objective);
    }
}
