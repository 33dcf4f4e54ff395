package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Mistral AI's chat completions: {@code POST /v1/chat/completions} with {@code Authorization: Bearer KEY};
 * {@code model} and {@code messages} (roles {@code system}, {@code user}, {@code assistant}, {@code tool};
 * {@code content} a string or a list of {@code {"type": "text", "text"}} chunks), {@code response_format}
 * ({@code text}, {@code json_object}, or {@code json_schema} with {@code name} and {@code schema}); a field it does
 * not know is refused (422, "Extra inputs are not permitted"). The answer and the stream are OpenAI-shaped
 * ({@code chat.completion}, {@code chat.completion.chunk} events whose last carries {@code usage}, then
 * {@code [DONE]}); errors are {@code {"object": "error", "message", "type"}}, an unknown key 401
 * {@code {"message": "Unauthorized"}}, a rate limit 429 {@code {"message": "Requests rate limit exceeded"}}
 * (the reference documents no header saying how long to wait).
 */
public final class MistralWire implements LlmWire {

    private static final Set<String> FIELDS = Set.of(
            "model",
            "messages",
            "temperature",
            "top_p",
            "max_tokens",
            "stream",
            "stop",
            "random_seed",
            "response_format",
            "tools",
            "tool_choice",
            "presence_penalty",
            "frequency_penalty",
            "n",
            "prediction",
            "parallel_tool_calls",
            "prompt_mode",
            "safe_prompt",
            "metadata");
    private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

    @Override
    public String provider() {
        return "mistral";
    }

    @Override
    public Map<String, String> environment(String origin, String key) {
        return Map.of("MISTRAL_API_KEY", key, "MISTRAL_BASE_URL", origin + "/v1");
    }

    @Override
    public Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key) {
        if (!method.equals("POST") || !path.equals("/v1/chat/completions")) {
            return new Refusal(404, "Not Found");
        }
        if (!("Bearer " + key).equals(LlmWire.header(headers, "Authorization"))) {
            return new Refusal(401, "Unauthorized");
        }
        String unknown = LlmWire.unknownField(body, FIELDS);
        if (unknown != null) {
            return new Refusal(422, "body." + unknown + ": Extra inputs are not permitted");
        }
        if (!body.path("model").isTextual()
                || !body.path("messages").isArray()
                || body.path("messages").isEmpty()) {
            return new Refusal(422, "body.model and body.messages: Field required");
        }
        for (JsonNode message : body.get("messages")) {
            if (!ROLES.contains(message.path("role").asText())) {
                return new Refusal(422, "body.messages.role: Input should be 'system', 'user', 'assistant' or 'tool'");
            }
            JsonNode content = message.path("content");
            if (!content.isTextual() && !chunks(content)) {
                return new Refusal(422, "body.messages.content: Input should be a valid string or list of chunks");
            }
        }
        JsonNode format = body.path("response_format");
        String type = format.path("type").asText("text");
        if (!Set.of("text", "json_object", "json_schema").contains(type)) {
            return new Refusal(
                    422, "body.response_format.type: Input should be 'text', 'json_object' or 'json_schema'");
        }
        if (type.equals("json_schema")
                && (!format.at("/json_schema/name").isTextual()
                        || !format.at("/json_schema/schema").isObject())) {
            return new Refusal(422, "body.response_format.json_schema: name and schema are required");
        }
        return null;
    }

    private static boolean chunks(JsonNode content) {
        if (!content.isArray()) {
            return false;
        }
        for (JsonNode chunk : content) {
            if (!chunk.path("type").asText().equals("text")
                    || !chunk.path("text").isTextual()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Sent sent(String path, JsonNode request) {
        JsonNode format = request.path("response_format");
        String kind = switch (format.path("type").asText("text")) {
            case "json_object" -> "json";
            case "json_schema" -> "schema";
            default -> "text";
        };
        return LlmWire.sent(
                LlmWire.systemMessages(request.path("messages")),
                request.get("temperature"),
                request.get("max_tokens"),
                kind,
                format.at("/json_schema/schema"),
                request.path("model").asText());
    }

    @Override
    public boolean streams(String path, String query, JsonNode body) {
        return body.path("stream").asBoolean(false);
    }

    @Override
    public String model(String path, JsonNode body) {
        return body.path("model").asText();
    }

    @Override
    public ObjectNode answer(JsonNode request, String text, int prompt, int completion) {
        ObjectNode answer = head(request, "chat.completion");
        ObjectNode choice = answer.putArray("choices").addObject().put("index", 0);
        choice.putObject("message")
                .put("role", "assistant")
                .put("content", text)
                .putNull("tool_calls");
        choice.put("finish_reason", "stop");
        answer.set("usage", usage(prompt, completion));
        return answer;
    }

    private static ObjectNode head(JsonNode request, String object) {
        return MAPPER.createObjectNode()
                .put("id", "cmpl-fake")
                .put("object", object)
                .put("created", 1_700_000_000)
                .put("model", request.path("model").asText());
    }

    private static ObjectNode usage(int prompt, int completion) {
        return MAPPER.createObjectNode()
                .put("prompt_tokens", prompt)
                .put("completion_tokens", completion)
                .put("total_tokens", prompt + completion);
    }

    @Override
    public void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion)
            throws IOException {
        for (int i = 0; i <= pieces.size(); i++) {
            if (i < pieces.size() && !out.pause()) {
                return;
            }
            ObjectNode chunk = head(request, "chat.completion.chunk");
            ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
            ObjectNode delta = choice.putObject("delta");
            if (i == 0) {
                delta.put("role", "assistant");
            }
            delta.put("content", i < pieces.size() ? pieces.get(i) : "");
            if (i == pieces.size()) {
                choice.put("finish_reason", "stop");
                chunk.set("usage", usage(prompt, completion));
            } else {
                choice.putNull("finish_reason");
            }
            out.event(null, chunk.toString());
        }
        out.event(null, "[DONE]");
    }

    @Override
    public ObjectNode error(int status, String message) {
        if (status == 401 || status == 429) {
            return MAPPER.createObjectNode().put("message", message).put("request_id", "fake");
        }
        return MAPPER.createObjectNode()
                .put("object", "error")
                .put("message", message)
                .put("type", "invalid_request_error")
                .putNull("param")
                .putNull("code");
    }

    @Override
    public RateLimit rateLimit(int seconds) {
        return new RateLimit(429, Map.of(), error(429, "Requests rate limit exceeded"));
    }
}
