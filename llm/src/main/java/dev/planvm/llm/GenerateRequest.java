package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.ToolException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What one {@code llm_generate} call asks for, read from its params and checked (a bad value is a
 * permanent failure naming the param):
 *
 * <ul>
 *   <li>{@code prompt}, {@code context}: the question and the material (as before);
 *   <li>{@code system}: a system message sent first;
 *   <li>{@code response_format}: {@code "text"} (the default), {@code "json"} (the answer is read as the JSON
 *       value it holds, as text around it or a code fence allow) or a JSON Schema object (sent as strict
 *       structured output; the answer must validate, with one re-ask when it does not); OpenAI's own forms
 *       ({@code {"type": "json_object"}}, {@code {"type": "json_schema", ...}}) mean the same. Any other string
 *       (StackVM plans write e.g. {@code "English"}) asks for text, as StackVM does;
 *   <li>{@code temperature} (0 to 2), {@code max_tokens} (at least 1), {@code model} (a model name the
 *       configured server offers), {@code stop} (texts that end the answer): passed on as they are;
 *   <li>{@code messages}: a whole conversation, {@code [{"role": "system" | "user" | "assistant", "content":
 *       text}, ...]}, sent as chat messages in order (a last assistant message is the start of the answer);
 *       {@code prompt}, when also given, is a user message after them. One of the two is needed.
 * </ul>
 *
 * When the output goes to two or more variables, their names become the required keys of the JSON object asked
 * for (added to a schema's {@code required}).
 */
record GenerateRequest(
        String prompt,
        JsonNode context,
        String system,
        Format format,
        ObjectNode schema,
        Double temperature,
        Integer maxTokens,
        String model,
        List<Turn> messages,
        List<String> stop) {

    /** One message of {@code messages}. */
    record Turn(String role, String content) {}

    /** The most messages and stop texts read. */
    private static final int MAX_MESSAGES = 10_000;

    private static final int MAX_STOP = 16;

    /** How the answer is asked for and read. */
    enum Format {
        TEXT,
        JSON,
        SCHEMA
    }

    /** The longest system message or model name read. */
    private static final int MAX_NAME = 200;

    static GenerateRequest of(JsonNode params, List<String> expectedKeys) {
        String system = text(params, "system", Integer.MAX_VALUE);
        String model = text(params, "model", MAX_NAME);
        if (model != null && model.isBlank()) {
            throw ToolException.permanent("model must name a model, not be blank");
        }
        Double temperature = null;
        JsonNode t = params.get("temperature");
        if (t != null && !t.isNull()) {
            if (!t.isNumber() || t.asDouble() < 0 || t.asDouble() > 2) {
                throw ToolException.permanent("temperature must be a number from 0 to 2, not " + t);
            }
            temperature = t.asDouble();
        }
        Integer maxTokens = null;
        JsonNode m = params.get("max_tokens");
        if (m != null && !m.isNull()) {
            if (!m.canConvertToInt() || !m.isIntegralNumber() || m.asInt() < 1) {
                throw ToolException.permanent("max_tokens must be a whole number of at least 1, not " + m);
            }
            maxTokens = m.asInt();
        }
        Format format = Format.TEXT;
        ObjectNode schema = null;
        JsonNode f = openAiForm(params.get("response_format"));
        if (f != null && f.isObject()) {
            format = Format.SCHEMA;
            schema = f.deepCopy();
            JsonSchemas.problem(schema).ifPresent(problem -> {
                throw ToolException.permanent("response_format cannot be used: " + problem);
            });
        } else if (f != null && f.isTextual() && f.asText().equals("json")) {
            format = Format.JSON;
        } else if (f != null && !f.isNull() && !f.isTextual()) {
            throw ToolException.permanent(
                    "response_format must be \"text\", \"json\" or a JSON Schema object, not " + f);
        }
        if (expectedKeys.size() >= 2) {
            if (format == Format.SCHEMA) {
                requireKeys(schema, expectedKeys);
            } else {
                format = Format.JSON;
            }
        }
        List<Turn> messages = messages(params.get("messages"));
        JsonNode prompt = params.get("prompt");
        if (messages.isEmpty() && (prompt == null || prompt.isNull())) {
            throw ToolException.permanent("llm_generate needs 'prompt' or 'messages'");
        }
        return new GenerateRequest(
                prompt == null || prompt.isNull() ? null : prompt.asText(),
                params.get("context"),
                system,
                format,
                schema,
                temperature,
                maxTokens,
                model,
                messages,
                stop(params.get("stop")));
    }

    private static List<Turn> messages(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (!node.isArray() || node.size() > MAX_MESSAGES) {
            throw ToolException.permanent(
                    "messages must be a list of at most " + MAX_MESSAGES + " {role, content} objects");
        }
        List<Turn> turns = new java.util.ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode m = node.get(i);
            String role = m.path("role").asText("");
            JsonNode content = m.path("content");
            if (!Set.of("system", "user", "assistant").contains(role)) {
                throw ToolException.permanent(
                        "messages[" + i + "].role must be system, user or assistant, not '" + role + "'");
            }
            turns.add(new Turn(
                    role,
                    content.isTextual()
                            ? content.asText()
                            : content.isMissingNode() || content.isNull() ? "" : content.toString()));
        }
        return List.copyOf(turns);
    }

    private static List<String> stop(JsonNode node) {
        if (node == null || node.isNull()) {
            return List.of();
        }
        if (node.isTextual()) {
            return List.of(node.asText());
        }
        if (!node.isArray() || node.size() > MAX_STOP) {
            throw ToolException.permanent("stop must be a text or a list of at most " + MAX_STOP + " texts");
        }
        List<String> texts = new java.util.ArrayList<>();
        node.forEach(t -> texts.add(t.asText()));
        return List.copyOf(texts);
    }

    /** This request asking for {@code otherModel} (null: the route's configured model). */
    GenerateRequest withModel(String otherModel) {
        return new GenerateRequest(
                prompt, context, system, format, schema, temperature, maxTokens, otherModel, messages, stop);
    }

    /** Whether the answer must be one JSON object with {@code keys} (a JSON request for two or more variables). */
    boolean wantsKeys(List<String> keys) {
        return format == Format.JSON && keys.size() >= 2;
    }

    /**
     * OpenAI's own forms, as a plan may copy them: {@code {"type": "text"}}, {@code {"type": "json_object"}} and
     * {@code {"type": "json_schema", "json_schema": {"schema": ...}}} mean text, json and that schema (no JSON
     * Schema has these types, so nothing is misread).
     */
    private static JsonNode openAiForm(JsonNode format) {
        if (format == null || !format.isObject()) {
            return format;
        }
        return switch (format.path("type").asText("")) {
            case "text" -> TextNode.valueOf("text");
            case "json_object" -> TextNode.valueOf("json");
            case "json_schema" -> {
                JsonNode schema = format.at("/json_schema/schema");
                if (!schema.isObject()) {
                    throw ToolException.permanent(
                            "response_format {\"type\": \"json_schema\"} needs json_schema.schema, a JSON Schema object");
                }
                yield schema;
            }
            default -> format;
        };
    }

    private static String text(JsonNode params, String name, int max) {
        JsonNode value = params.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw ToolException.permanent(
                    name + " must be text, not " + value.getNodeType().name().toLowerCase());
        }
        if (value.asText().length() > max) {
            throw ToolException.permanent(name + " is longer than " + max + " characters");
        }
        return value.asText();
    }

    /** The schema, an object with (at least) these required keys. */
    private static void requireKeys(ObjectNode schema, List<String> keys) {
        if (!schema.has("type")) {
            schema.put("type", "object");
        }
        Set<String> required = new LinkedHashSet<>();
        JsonNode existing = schema.get("required");
        if (existing != null && existing.isArray()) {
            existing.forEach(k -> required.add(k.asText()));
        }
        required.addAll(keys);
        ArrayNode all = schema.putArray("required");
        required.forEach(all::add);
    }
}
