package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 004's group chat, as the reference runs it: a script with {@code roles: {name: script id}} keeps, beside its
 * own conversation, the group's public messages as text ({@code NAME: content}; the user is {@code 陌生人}, the
 * reference's name for a user it does not know). {@code user[@dobby]: text} (or {@code SCRIPT[@dobby]:}, the
 * script itself speaking) adds the turn, then {@code dobby} answers; {@code dobby: "[[VAR]]"} has {@code dobby}
 * answer into {@code VAR}. A role answers as its script (a {@code char}) with the group's messages so far as one
 * user message: the script, with that turn added, is a plan tool ({@code role_NAME}). Its answer joins the group and,
 * as {@code dobby: answer}, the script's conversation as a user turn. Private messages ({@code (PM)}), {@code @all},
 * several roles at once and {@code user: @dobby, ...} in the text are refused.
 */
final class GroupChat {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    static final String GROUP = "ppe_group";
    /** The input a role's script reads the group's messages from. */
    static final String INPUT = "PPE_GROUP";
    /** The reference's name for the user in a group ("stranger"). */
    static final String USER = "陌生人";

    private static final Pattern ADDRESSED = Pattern.compile("([A-Za-z_][\\w-]*)\\s*\\[\\s*@([A-Za-z_][\\w-]*)\\s*]");
    private static final Pattern ANSWER = Pattern.compile("\\s*\\[\\[([A-Za-z_][A-Za-z0-9_]*)]]\\s*");

    private final ScriptCompiler script;
    private final Problems problems;
    private final Map<String, String> tools = new HashMap<>();
    private boolean started;

    /** Finds a role's script by id and offers it, with the group's turn added, as a plan tool: its name, or null. */
    interface Roles {
        String tool(String role, String scriptId, Pos pos);
    }

    Roles roles = (role, id, pos) -> null;

    GroupChat(ScriptCompiler script) {
        this.script = script;
        this.problems = script.problems;
    }

    boolean active() {
        return !script.front.roles.isEmpty();
    }

    /** Whether {@code key} is a group-chat step: {@code speaker[@role]} or a role's name. */
    boolean handles(String key) {
        return key.contains("[") || active() && script.front.roles.containsKey(key);
    }

    /** A group-chat step ({@link #handles}). */
    void step(PNode.Scalar key, PNode value, Dialogue dialogue) {
        String k = key.value().strip();
        Pos pos = key.pos();
        if (!active()) {
            problems.error(pos, "group chat ('" + k + "') needs 'roles' in the front matter: {name: script id}");
            return;
        }
        if (!(value instanceof PNode.Scalar text) || !script.values.refuseTag(value)) {
            problems.error(pos, "a group-chat turn is text");
            return;
        }
        if (script.front.roles.containsKey(k)) {
            Matcher answer = ANSWER.matcher(text.value());
            if (!answer.matches()) {
                problems.error(pos, "a role's turn is '" + k + ": \"[[VAR]]\"': the role answers into VAR");
                return;
            }
            String tool = tool(k, pos);
            if (tool != null) {
                answer(k, tool, answer.group(1), pos, dialogue);
            }
            return;
        }
        Matcher addressed = ADDRESSED.matcher(k);
        if (!addressed.matches()) {
            problems.error(
                    pos,
                    "'" + k + "': planvm's group chat addresses one role, 'user[@name]:' (private messages, @all and"
                            + " several roles are not supported)");
            return;
        }
        String speaker = addressed.group(1);
        String role = addressed.group(2);
        boolean self = speaker.equals(script.front.name) || speaker.equals("assistant");
        if (!speaker.equals("user") && !self) {
            problems.error(pos, "in '" + k + "' the speaker is user or the script itself (" + script.front.name + ")");
            return;
        }
        if (!script.front.roles.containsKey(role)) {
            problems.error(pos, "'" + role + "' is not one of the script's roles " + script.front.roles.keySet());
            return;
        }
        String tool = tool(role, pos);
        String content = script.turnText(text.value(), text.pos());
        if (tool == null || content == null) {
            return;
        }
        dialogue.add(self ? "assistant" : "user", content, pos);
        script.resultChanged();
        joins(self ? script.front.name : USER, Dialogue.TURN, pos);
        answer(role, tool, "ROLE_ANSWER", pos, dialogue);
    }

    /** A plain turn of a group-chat script also joins the group's messages. */
    void turn(String role, Pos pos) {
        if (active() && !role.equals("system")) {
            joins(role.equals("user") ? USER : script.front.name, Dialogue.TURN, pos);
        }
    }

    private String tool(String role, Pos pos) {
        String tool = tools.get(role);
        if (tool == null) {
            PNode.Scalar id = script.front.roles.get(role);
            tool = roles.tool(role, id.value(), id.pos());
            if (tool == null) {
                problems.error(
                        pos,
                        "the role '" + role + "' (script '" + id.value() + "') is not found or does not" + " compile");
                return null;
            }
            tools.put(role, tool);
        }
        return tool;
    }

    /** {@code role} answers the group's messages so far into {@code variable}; the answer joins both conversations. */
    private void answer(String role, String tool, String variable, Pos pos, Dialogue dialogue) {
        start(pos);
        ObjectNode params = JSON.objectNode();
        params.put(INPUT, "${join(" + GROUP + ", " + Templates.quote("\n\n") + ")}");
        script.plan.calling(tool, params, variable, pos, "line " + pos.line() + ": " + role + " answers the group");
        joins(role, variable, pos);
        dialogue.add("user", "${" + Templates.quote(role + ": ") + " + " + variable + "}", pos);
        ObjectNode latest = JSON.objectNode();
        latest.put(Dialogue.LATEST, "${" + variable + "}");
        script.plan.assign(latest, pos, "line " + pos.line() + ": " + role + "'s answer is the result");
        script.resultChanged();
    }

    private void joins(String name, String variable, Pos pos) {
        start(pos);
        ObjectNode values = JSON.objectNode();
        values.put(GROUP, "${" + GROUP + " + [" + Templates.quote(name + ": ") + " + " + variable + "]}");
        script.plan.assign(values, pos, "line " + pos.line() + ": the group hears " + name);
    }

    private void start(Pos pos) {
        if (!started) {
            started = true;
            ObjectNode values = JSON.objectNode();
            values.set(GROUP, JSON.arrayNode());
            script.plan.prologueAssign(values, pos, "the group's public messages");
        }
    }

    /** The turn a role's script gets last: the group's messages as one user message. */
    static String roleTurn() {
        return "\nuser: \"{{" + INPUT + "}}\"\n";
    }
}
