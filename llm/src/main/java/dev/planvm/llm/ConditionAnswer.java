package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonText;
import dev.planvm.tools.ConditionResult;
import java.util.Optional;

/**
 * What an LLM answer to a condition says: a {@link ConditionResult}, or the precise reason it is not
 * usable. Strict on {@code result} (a boolean, or the string "true"/"false"), lenient on
 * {@code explanation} (missing or null reads as "").
 *
 * @param result  the decision, or null when the answer is unusable
 * @param problem why the answer is unusable, addressed to the model; null when usable
 */
record ConditionAnswer(ConditionResult result, String problem) {

    static ConditionAnswer read(String text) {
        Optional<ObjectNode> found = JsonText.findObject(text);
        if (found.isEmpty()) {
            return problem("Your answer had no JSON object.");
        }
        ObjectNode object = found.get();
        JsonNode result = object.get("result");
        if (result == null) {
            return problem("Your JSON object had no 'result' key.");
        }
        Boolean decision = decision(result);
        if (decision == null) {
            return problem("In your JSON object, 'result' was " + describe(result) + ", not true or false.");
        }
        return new ConditionAnswer(new ConditionResult(decision, explanation(object.get("explanation"))), null);
    }

    private static ConditionAnswer problem(String problem) {
        return new ConditionAnswer(null, problem);
    }

    private static Boolean decision(JsonNode result) {
        if (result.isBoolean()) {
            return result.booleanValue();
        }
        if (result.isTextual()) {
            String word = result.asText().strip();
            if (word.equalsIgnoreCase("true")) {
                return true;
            }
            if (word.equalsIgnoreCase("false")) {
                return false;
            }
        }
        return null;
    }

    private static String explanation(JsonNode explanation) {
        if (explanation == null || explanation.isNull()) {
            return "";
        }
        return explanation.isTextual() ? explanation.asText() : explanation.toString();
    }

    private static String describe(JsonNode value) {
        String json = LlmText.shorten(value.toString(), 60);
        if (value.isTextual()) {
            return "the string " + json;
        }
        if (value.isNull()) {
            return "null";
        }
        return (value.isContainerNode() ? (value.isObject() ? "the object " : "the array ") : "") + json;
    }
}
