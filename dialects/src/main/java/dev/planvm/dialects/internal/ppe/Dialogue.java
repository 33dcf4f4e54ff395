package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.internal.Pos;
import java.util.List;

/**
 * The conversation, as the reference engine keeps it: a list of messages that grows as the script runs (its
 * {@code prompt.messages}), held in the run variable {@link #MESSAGES}. A turn is rendered when the script reaches
 * it and appended; an AI call sends the messages so far; {@code ---} ({@code $initDone}) keeps the messages of the
 * script's first part (before its first {@code ---}) and, at every later one, goes back to them. Branches and loops
 * add to the same list, as in the reference. The script's result so far is the variable {@link #LATEST}.
 */
final class Dialogue {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** The messages so far, {@code [{role, content}]}. */
    static final String MESSAGES = "ppe_messages";
    /** The messages of the script's first part, which every later {@code ---} goes back to. */
    static final String INIT = "ppe_init_messages";
    /** A turn's text, rendered, on its way into {@link #MESSAGES}. */
    static final String TURN = "ppe_turn";
    /** How many AI calls the script has made (the automatic answer at the end needs to know). */
    static final String CALLS = "ppe_llm_calls";
    /** The result of the last step that has one: the script's result when it ends. */
    static final String LATEST = "LatestResult";

    /** The reference's JSON-schema note for the system message, as an expression's text literal (null: none). */
    private String hint;
    /** The property names whose mention at a line's start makes the note unneeded. */
    private List<String> hintNames = List.of();

    static final String TEXT = "ppe_text";
    static final String HINTED = "ppe_hinted";
    static final String HINT_SYS = "ppe_hint_sys";

    private final PlanBuilder plan;
    /** Whether any turn is written: without one the conversation stays empty and the AI never answers by itself. */
    private boolean turns;

    Dialogue(PlanBuilder plan) {
        this.plan = plan;
    }

    /** The same conversation: branches and loops add to it. */
    Dialogue copy() {
        return this;
    }

    /**
     * Asks for JSON the reference's way: when no message mentions one of {@code names} at the start of a line, the
     * AI is sent the messages with {@code note} (the schema in words) added to the first system message (or as one
     * of its own), as the reference does when it asks for JSON that fits the script's {@code output}.
     */
    void hint(String note, List<String> names) {
        this.hint = Templates.quote(note);
        this.hintNames = List.copyOf(names);
    }

    /** The run variables this starts with: no messages, no AI call, no result. */
    ObjectNode initial() {
        ObjectNode values = JSON.objectNode();
        values.set(MESSAGES, JSON.arrayNode());
        values.putNull(INIT);
        values.put(CALLS, 0);
        values.putNull(LATEST);
        if (hint != null) {
            values.put(TEXT, "");
            values.set(HINTED, JSON.arrayNode());
            values.put(HINT_SYS, false);
        }
        return values;
    }

    /** With a hint, the other views of the conversation follow a new message whose text is in {@code text}. */
    private void alongside(ObjectNode values, String role, String text) {
        if (hint == null) {
            return;
        }
        values.put(TEXT, "${" + TEXT + " + '\n' + " + text + "}");
        String content = role.equals("system")
                ? "(" + HINT_SYS + " && ('' + " + text + ") || " + text + " + '\n\n' + " + hint + ")"
                : "'' + " + text;
        values.put(HINTED, "${" + HINTED + " + [{role: '" + role + "', content: " + content + "}]}");
        if (role.equals("system")) {
            values.put(HINT_SYS, true);
        }
    }

    /** Appends a turn whose text is {@code content} (a planvm template); it is also the result so far. */
    void add(String role, String content, Pos pos) {
        turns = true;
        ObjectNode values = JSON.objectNode();
        values.put(TURN, content);
        values.put(MESSAGES, "${" + MESSAGES + " + [{role: '" + role + "', content: '' + " + TURN + "}]}");
        values.put(LATEST, "${" + TURN + "}");
        alongside(values, role, TURN);
        plan.assign(values, pos, "line " + pos.line() + ": a " + role + " turn");
    }

    /** Appends the answer in {@code variable} as an assistant turn. */
    void addAnswer(String variable, Pos pos) {
        ObjectNode values = JSON.objectNode();
        values.put(MESSAGES, "${" + MESSAGES + " + [{role: 'assistant', content: '' + " + variable + "}]}");
        alongside(values, "assistant", variable);
        plan.assign(values, pos, "line " + pos.line() + ": the answer joins the conversation");
    }

    /**
     * {@code ---}: the first keeps the messages so far as the script's first part ({@code force}); a later one goes
     * back to them (or, when no first part was kept, keeps the messages so far, as the reference does).
     */
    void initDone(boolean force, Pos pos) {
        ObjectNode values = JSON.objectNode();
        List<String[]> views = new java.util.ArrayList<>();
        views.add(new String[] {MESSAGES, INIT});
        if (hint != null) {
            views.add(new String[] {TEXT, INIT + "_text"});
            views.add(new String[] {HINTED, INIT + "_hinted"});
            views.add(new String[] {HINT_SYS, INIT + "_hint_sys"});
        }
        for (String[] view : views) {
            if (force) {
                values.put(view[1], "${" + view[0] + "}");
            } else {
                values.put(view[1], "${" + INIT + " != null && " + view[1] + " || " + view[0] + "}");
            }
        }
        if (!force) {
            for (String[] view : views) {
                values.put(view[0], "${" + view[1] + "}");
            }
        }
        plan.assign(values, pos, "line " + pos.line() + ": --- " + (force ? "ends the first part" : "a new dialogue"));
    }

    /**
     * The {@code messages} param of an AI call: the messages so far, and the assistant's text begun before the
     * answer ({@code begun}, a template; empty: none), which is first put in {@link #TURN}.
     */
    JsonNode messages(String begun, Pos pos) {
        String sent = MESSAGES;
        if (hint != null) {
            List<String> mentions = new java.util.ArrayList<>();
            for (String name : hintNames) {
                for (String space : List.of("", "  ", "    ")) { // the reference's /^\s*(\* |#+ )?(\*\*)?['"]?name/m
                    for (String mark : List.of("", "* ", "# ", "**")) {
                        for (String quote : List.of("", "\"")) {
                            mentions.add("contains(" + TEXT + ", " + Templates.quote("\n" + space + mark + quote + name)
                                    + ")");
                        }
                    }
                }
            }
            String needed = mentions.isEmpty() ? "true" : "!(" + String.join(" || ", mentions) + ")";
            sent = "(" + needed + " && (" + HINT_SYS + " && " + HINTED + " || [{role: 'system', content: " + hint
                    + "}] + " + HINTED + ") || " + MESSAGES + ")";
        }
        if (begun.isEmpty()) {
            return TextNode.valueOf("${" + sent + "}");
        }
        ObjectNode values = JSON.objectNode();
        values.put(TURN, begun);
        plan.assign(values, pos, "line " + pos.line() + ": the assistant's text before the answer");
        return TextNode.valueOf("${" + sent + " + [{role: 'assistant', content: '' + " + TURN + "}]}");
    }

    /** After an AI call into {@code variable}: one more call made; the answer is the result so far. */
    void answered(String variable, Pos pos) {
        ObjectNode values = JSON.objectNode();
        values.put(CALLS, "${" + CALLS + " + 1}");
        values.put(LATEST, "${" + variable + "}");
        plan.assign(values, pos, "line " + pos.line() + ": " + variable + " is the result so far");
    }

    /**
     * The condition under which the reference answers by itself when the script ends: there are messages, and
     * no AI call was made or the last message is the user's ({@code autoRunLLMIfPromptAvailable}).
     */
    static String autoAnswer() {
        return "len(" + MESSAGES + ") > 0 && (" + CALLS + " == 0 || " + MESSAGES + "[len(" + MESSAGES
                + ") - 1].role == 'user')";
    }

    /** Whether any turn is written (else there are never messages). */
    boolean hasTurns() {
        return turns;
    }
}
