package dev.planvm.tools.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@code human_input} call asks a person: a prompt, and what a right answer is — a JSON Schema
 * the answer must fit, or choices (strings) it must be one of; with neither, any JSON value. Every
 * front end that takes an answer ({@code planvm answer}, the HTTP API, the MCP tool, a terminal prompt)
 * checks it with {@link #refusal} before the run goes on.
 *
 * @param schema  the JSON Schema of the answer, or {@code null}
 * @param choices the answers allowed, or empty for any
 */
public record InputRequest(String prompt, JsonNode schema, List<String> choices) {

    /** The name of the built-in tool. */
    public static final String TOOL = "human_input";

    public InputRequest {
        Objects.requireNonNull(prompt, "prompt");
        choices = List.copyOf(choices);
    }

    /**
     * The request a call's params make.
     *
     * @throws ToolException (not retriable) for params that are not {@code {prompt, schema?, choices?}}
     */
    public static InputRequest of(JsonNode params) {
        if (params == null || !params.isObject()) {
            throw ToolException.permanent("human_input takes an object {prompt, schema?, choices?}");
        }
        List<String> unknown = new ArrayList<>();
        params.fieldNames().forEachRemaining(name -> {
            if (!List.of("prompt", "schema", "choices").contains(name)) {
                unknown.add(name);
            }
        });
        if (!unknown.isEmpty()) {
            throw ToolException.permanent("human_input has no param " + String.join(", ", unknown)
                    + " (it takes prompt, schema and choices)");
        }
        JsonNode prompt = params.get("prompt");
        if (prompt == null || !prompt.isTextual() || prompt.asText().isBlank()) {
            throw ToolException.permanent("human_input needs a prompt: a text that says what to answer");
        }
        JsonNode schema = params.get("schema");
        if (schema != null && !schema.isObject() && !schema.isBoolean()) {
            throw ToolException.permanent("human_input's schema must be a JSON Schema object, not " + schema);
        }
        if (schema != null) {
            JsonSchemas.problem(schema).ifPresent(problem -> {
                throw ToolException.permanent("human_input's schema cannot be used: " + problem);
            });
        }
        List<String> choices = new ArrayList<>();
        JsonNode given = params.get("choices");
        if (given != null) {
            if (!given.isArray() || given.isEmpty()) {
                throw ToolException.permanent("human_input's choices must be a non-empty array of strings");
            }
            for (JsonNode choice : given) {
                if (!choice.isTextual()) {
                    throw ToolException.permanent("human_input's choices must be strings, not " + choice);
                }
                choices.add(choice.asText());
            }
        }
        if (schema != null && !choices.isEmpty()) {
            throw ToolException.permanent("human_input takes a schema or choices, not both");
        }
        return new InputRequest(prompt.asText(), schema, choices);
    }

    /** Why {@code answer} is not a right answer to this request, or empty when it is. */
    public Optional<String> refusal(JsonNode answer) {
        if (answer == null || answer.isMissingNode()) {
            return Optional.of("no answer was given");
        }
        if (!choices.isEmpty()) {
            return answer.isTextual() && choices.contains(answer.asText())
                    ? Optional.empty()
                    : Optional.of("the answer " + abbreviate(answer.toString()) + " is not one of the choices "
                            + String.join(", ", choices));
        }
        if (schema != null) {
            List<String> problems;
            try {
                problems = JsonSchemas.problems(JsonSchemas.compile(schema), answer, 5);
            } catch (RuntimeException e) {
                return Optional.of("the input's schema cannot be used: " + e.getMessage());
            }
            return problems.isEmpty()
                    ? Optional.empty()
                    : Optional.of("the answer " + abbreviate(answer.toString()) + " does not fit the schema: "
                            + String.join("; ", problems));
        }
        return Optional.empty();
    }

    /** The params schema of the built-in {@code human_input} tool. */
    public static JsonNode paramsSchema() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode schema = f.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties
                .putObject("prompt")
                .put("type", "string")
                .put("minLength", 1)
                .put("description", "what the person is asked");
        properties.putObject("schema").put("type", "object").put("description", "a JSON Schema the answer must fit");
        ObjectNode choices = properties.putObject("choices");
        choices.put("type", "array").put("minItems", 1).put("description", "the answers allowed");
        choices.putObject("items").put("type", "string");
        ArrayNode required = schema.putArray("required");
        required.add("prompt");
        schema.put("additionalProperties", false);
        return schema;
    }

    private static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 200) + "…";
    }
}
