package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conversation so far, as the compiler knows it: turns whose content is a planvm template,
 * rendered when the AI call that sends them runs. A dialogue ({@code ---}) starts again from the
 * script's first one; a branch or a loop body continues a copy, so its turns stay its own.
 */
final class Dialogue {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    record Turn(String role, String content) {}

    private final List<Turn> turns;

    Dialogue() {
        this.turns = new ArrayList<>();
    }

    private Dialogue(List<Turn> turns) {
        this.turns = new ArrayList<>(turns);
    }

    Dialogue copy() {
        return new Dialogue(turns);
    }

    void add(String role, String content) {
        turns.add(new Turn(role, content));
    }

    /**
     * Points the turns that show {@code variable}'s value ({@code ${variable}}) at {@code snapshot}
     * instead; false when none does. Used before {@code variable} is written again, so the history
     * keeps the answer it had.
     */
    boolean keep(String variable, String snapshot) {
        Pattern ref = Pattern.compile("(?<!\\$)\\$\\{" + Pattern.quote(variable) + "\\}");
        boolean found = false;
        for (int i = 0; i < turns.size(); i++) {
            Turn t = turns.get(i);
            Matcher m = ref.matcher(t.content());
            if (m.find()) {
                found = true;
                turns.set(i, new Turn(t.role(), m.replaceAll(Matcher.quoteReplacement("${" + snapshot + "}"))));
            }
        }
        return found;
    }

    /** Whether the last turn is the user's (an AI answer is due). */
    boolean awaitsAnswer() {
        return !turns.isEmpty() && turns.get(turns.size() - 1).role().equals("user");
    }

    /**
     * The llm_generate params for an answer now: {@code prompt} (the last user turn), {@code context}
     * (the other turns, in order, as {@code {role, content}}, then the answer begun so far) and
     * {@code system} (the system turns); null when there is no user turn to answer.
     */
    ObjectNode request(String begun) {
        int user = -1;
        for (int i = turns.size() - 1; i >= 0 && user < 0; i--) {
            if (turns.get(i).role().equals("user")) {
                user = i;
            }
        }
        if (user < 0) {
            return null;
        }
        ObjectNode params = JSON.objectNode();
        params.put("prompt", turns.get(user).content());
        ArrayNode context = JSON.arrayNode();
        List<String> system = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            Turn t = turns.get(i);
            if (t.role().equals("system")) {
                system.add(t.content());
            } else if (i != user) {
                context.addObject().put("role", t.role()).put("content", t.content());
            }
        }
        if (!begun.isEmpty()) {
            context.addObject().put("role", "assistant").put("content", begun);
        }
        if (!context.isEmpty()) {
            params.set("context", context);
        }
        if (!system.isEmpty()) {
            params.put("system", String.join("\n\n", system));
        }
        return params;
    }
}
