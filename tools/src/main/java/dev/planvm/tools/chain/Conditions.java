package dev.planvm.tools.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.ToolException;

/** A {@link ConditionResult} travels the chain as {@code {"result": boolean, "explanation": string}}. */
public final class Conditions {

    private Conditions() {
    }

    public static ObjectNode toJson(ConditionResult result) {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("result", result.result());
        json.put("explanation", result.explanation());
        return json;
    }

    public static ConditionResult fromJson(JsonNode json) {
        if (!json.path("result").isBoolean()) {
            throw ToolException.permanent("a condition answer needs a boolean 'result', got " + json);
        }
        return new ConditionResult(json.get("result").asBoolean(), json.path("explanation").asText(""));
    }
}
