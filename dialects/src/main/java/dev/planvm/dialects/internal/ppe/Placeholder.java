package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;
import dev.planvm.dialects.internal.Problems;
import java.util.ArrayList;
import java.util.List;

/**
 * An AI replacement inside an assistant turn: {@code [[VAR]]}, {@code [[VAR:temperature=0.1,max_tokens=50]]}
 * or {@code [[VAR: |a|b|c]]} (the answer must be one of the choices).
 *
 * @param variable where the answer goes
 * @param params   llm_generate params it sets
 * @param choices  the allowed answers, or null
 */
record Placeholder(String variable, ObjectNode params, List<String> choices) {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Reads the text between {@code [[} and {@code ]]}; null with the problem reported. */
    static Placeholder parse(String inner, Pos pos, Problems problems) {
        String s = inner.strip();
        if (s.startsWith("@") || s.startsWith("/") || s.startsWith("$")) {
            problems.error(
                    pos,
                    Templates.describeBracket("[[" + s) + " is not supported"
                            + (s.startsWith("@") ? ": calling scripts needs plan tools" : ""));
            return null;
        }
        int colon = s.indexOf(':');
        String variable = (colon < 0 ? s : s.substring(0, colon)).strip();
        if (!ScriptCompiler.NAME.matcher(variable).matches()) {
            problems.error(pos, "'[[" + inner + "]]' must start with a variable name (letters, digits, _)");
            return null;
        }
        ObjectNode params = JSON.objectNode();
        if (colon < 0) {
            return new Placeholder(variable, params, null);
        }
        String rest = s.substring(colon + 1).strip();
        if (rest.startsWith("|")) {
            List<String> choices = new ArrayList<>();
            for (String choice : rest.substring(1).split("\\|", -1)) {
                String c = choice.strip();
                if (c.contains(":")) {
                    problems.error(pos, "choices picked at random ('" + c + "') are not supported");
                    return null;
                }
                if (!c.isEmpty() && !choices.contains(c)) {
                    choices.add(c);
                }
            }
            if (choices.isEmpty()) {
                problems.error(pos, "'[[" + inner + "]]' lists no choices");
                return null;
            }
            return new Placeholder(variable, params, choices);
        }
        for (String pair : rest.split(",")) {
            int eq = pair.indexOf('=');
            String key = (eq < 0 ? pair : pair.substring(0, eq)).strip();
            if (eq < 0) {
                pair = key + "=" + key; // [[V:temperature]]: the variable of that name
                eq = key.length();
            }
            if (!(key.equals("temperature") || key.equals("max_tokens") || key.equals("model"))) {
                problems.error(
                        pos,
                        "'" + pair.strip() + "' in '[[" + inner + "]]' is not supported: write temperature=...,"
                                + " max_tokens=... or model=...");
                return null;
            }
            JsonNode value = scalar(pair.substring(eq + 1).strip());
            params.set(key, value);
        }
        return new Placeholder(variable, params, null);
    }

    private static JsonNode scalar(String v) {
        if ((v.startsWith("'") && v.endsWith("'") || v.startsWith("\"") && v.endsWith("\"")) && v.length() >= 2) {
            return JSON.textNode(v.substring(1, v.length() - 1));
        }
        JsonNode typed = Values.typed(new PNode.Scalar(v, new Pos(1, 1), true, null));
        if (typed == null && v.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            return JSON.textNode("${" + v + "}"); // a variable's value
        }
        return typed != null ? typed : JSON.textNode(v);
    }

    /** The JSON Schema of one of the choices: {@code {"type": "string", "enum": [...]}}. */
    static JsonNode enumSchema(List<String> choices) {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "string");
        ArrayNode values = schema.putArray("enum");
        choices.forEach(values::add);
        return schema;
    }
}
