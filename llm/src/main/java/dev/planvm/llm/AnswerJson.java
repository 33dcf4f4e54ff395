package dev.planvm.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonText;
import dev.planvm.tools.JsonSchemas;
import java.util.List;
import java.util.Optional;

/**
 * Reading an LLM's answer as JSON, and checking it against a plan's JSON Schema. The schema comes from a plan,
 * so it is untrusted: a {@code $ref} is never fetched (no file, no network), only resolved inside the schema.
 */
final class AnswerJson {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.LLM_ANSWER);
    private static final int MAX_PROBLEMS = 5;

    private AnswerJson() {}

    /** The JSON value {@code answer} holds: all of it, or an object or array in a fence or in prose. */
    static Optional<JsonNode> value(String answer) {
        Optional<JsonNode> container = JsonText.parse(answer);
        if (container.isPresent()) {
            return container;
        }
        try {
            return Optional.of(MAPPER.readTree(answer.strip())).filter(v -> !v.isMissingNode());
        } catch (JsonProcessingException notJson) {
            return Optional.empty();
        }
    }

    /** Why {@code value} does not fit {@code schema} (at most a few sentences), or none when it does. */
    static List<String> problems(JsonNode schema, JsonNode value) {
        return JsonSchemas.problems(JsonSchemas.compile(schema), value, MAX_PROBLEMS);
    }
}
