package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * The answer to a condition: which way to jump, and why (kept in the trace). It travels the call
 * chain (and cassettes) as {@code {"result": boolean, "explanation": string}}.
 */
public record ConditionResult(boolean result, String explanation) {
    public ConditionResult {
        Objects.requireNonNull(explanation, "explanation");
    }

    /** {@code {"result": ..., "explanation": ...}}. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("result", result);
        json.put("explanation", explanation);
        return json;
    }

    /** Reads the JSON form; a non-boolean {@code result} is a non-retriable {@link ToolException}. */
    public static ConditionResult fromJson(JsonNode json) {
        if (!json.path("result").isBoolean()) {
            throw ToolException.permanent("a condition answer needs a boolean 'result', got " + json);
        }
        return new ConditionResult(
                json.get("result").asBoolean(), json.path("explanation").asText(""));
    }
}
