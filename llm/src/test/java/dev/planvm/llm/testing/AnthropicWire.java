package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Anthropic's Messages API: {@code POST /v1/messages} with {@code x-api-key} and {@code anthropic-version};
 * {@code model}, {@code max_tokens} and {@code messages} (roles {@code user} and {@code assistant} only: the
 * system prompt is the top-level {@code system}) required, unknown fields refused, {@code temperature} from 0 to
 * 1; structured output in {@code output_config.format} ({@code {"type": "json_schema", "schema": ...}}) whose
 * every object has {@code additionalProperties: false} and which has no numeric, length or size bounds. The
 * answer is a {@code message} of content blocks with {@code usage.input_tokens}/{@code output_tokens}; a stream
 * is named events ({@code message_start}, {@code content_block_start}, {@code ping}, {@code content_block_delta}
 * with {@code text_delta}s, {@code content_block_stop}, {@code message_delta} with the stop reason and output
 * tokens, {@code message_stop}); errors are {@code {"type": "error", "error": {"type", "message"}}}; a rate limit
 * is 429 {@code rate_limit_error} with {@code retry-after} and the {@code anthropic-ratelimit-*} headers.
 */
public final class AnthropicWire implements LlmWire {

    private static final Set<String> FIELDS = Set.of(
            "model",
            "messages",
            "max_tokens",
            "system",
            "temperature",
            "top_p",
            "top_k",
            "stop_sequences",
            "stream",
            "metadata",
            "tools",
            "tool_choice",
            "thinking",
            "output_config",
            "service_tier",
            "container",
            "mcp_servers",
            "context_management");
    private static final Set<String> UNSUPPORTED = Set.of(
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "maxItems",
            "uniqueItems");

    @Override
    public String provider() {
        return "anthropic";
    }

    @Override
    public Map<String, String> environment(String origin, String key) {
        return Map.of("ANTHROPIC_API_KEY", key, "ANTHROPIC_BASE_URL", origin);
    }

    @Override
    public Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key) {
        if (!method.equals("POST") || !path.equals("/v1/messages")) {
            return new Refusal(404, "Not found");
        }
        if (!key.equals(LlmWire.header(headers, "x-api-key"))) {
            return new Refusal(401, "invalid x-api-key");
        }
        if (LlmWire.header(headers, "anthropic-version") == null) {
            return new Refusal(400, "anthropic-version: header is required");
        }
        String unknown = LlmWire.unknownField(body, FIELDS);
        if (unknown != null) {
            return new Refusal(400, unknown + ": Extra inputs are not permitted");
        }
        if (!body.path("model").isTextual()) {
            return new Refusal(400, "model: Field required");
        }
        if (!body.path("max_tokens").canConvertToInt()
                || body.path("max_tokens").asInt() < 1) {
            return new Refusal(400, "max_tokens: Field required");
        }
        if (!body.path("messages").isArray() || body.path("messages").isEmpty()) {
            return new Refusal(400, "messages: at least one message is required");
        }
        for (JsonNode message : body.get("messages")) {
            String role = message.path("role").asText();
            if (!role.equals("user") && !role.equals("assistant")) {
                return new Refusal(
                        400,
                        "messages: Unexpected role \"" + role + "\". The Messages API accepts a"
                                + " top-level `system` parameter, not \"system\" as an input message role.");
            }
            if (!message.path("content").isTextual() && !textBlocks(message.path("content"))) {
                return new Refusal(400, "messages.content: Input should be a valid string or a list of blocks");
            }
        }
        if (body.has("system") && !body.get("system").isTextual() && !textBlocks(body.get("system"))) {
            return new Refusal(400, "system: Input should be a valid string or a list of text blocks");
        }
        double temperature = body.path("temperature").asDouble(1);
        if (temperature < 0 || temperature > 1) {
            return new Refusal(400, "temperature: Input should be less than or equal to 1");
        }
        JsonNode format = body.at("/output_config/format");
        if (!format.isMissingNode()) {
            if (!format.path("type").asText().equals("json_schema")
                    || !format.path("schema").isObject()) {
                return new Refusal(
                        400, "output_config.format: expected {\"type\": \"json_schema\", \"schema\": {...}}");
            }
            String problem = schemaProblem(format.get("schema"), "schema");
            if (problem != null) {
                return new Refusal(400, "output_config.format." + problem);
            }
        }
        return null;
    }

    private static boolean textBlocks(JsonNode blocks) {
        if (!blocks.isArray()) {
            return false;
        }
        for (JsonNode block : blocks) {
            if (!block.path("type").asText().equals("text")
                    || !block.path("text").isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** Structured outputs: every object closed, no bounds the grammar cannot hold. */
    private static String schemaProblem(JsonNode schema, String where) {
        for (String key : (Iterable<String>) schema::fieldNames) {
            if (UNSUPPORTED.contains(key)) {
                return where + ": '" + key + "' is not supported";
            }
        }
        boolean object =
                schema.has("properties") || "object".equals(schema.path("type").asText());
        if (object && !schema.path("additionalProperties").isBoolean()
                || object && schema.path("additionalProperties").asBoolean()) {
            return where + ": For 'object' type, 'additionalProperties' must be explicitly set to false";
        }
        for (var property : schema.path("properties").properties()) {
            String problem = schemaProblem(property.getValue(), where + ".properties." + property.getKey());
            if (problem != null) {
                return problem;
            }
        }
        for (String child : new String[] {"items"}) {
            if (schema.path(child).isObject()) {
                String problem = schemaProblem(schema.get(child), where + "." + child);
                if (problem != null) {
                    return problem;
                }
            }
        }
        for (JsonNode branch : schema.path("anyOf")) {
            String problem = schemaProblem(branch, where + ".anyOf");
            if (problem != null) {
                return problem;
            }
        }
        for (var def : schema.path("$defs").properties()) {
            String problem = schemaProblem(def.getValue(), where + ".$defs." + def.getKey());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    @Override
    public Sent sent(String path, JsonNode request) {
        JsonNode schema = request.at("/output_config/format/schema");
        return LlmWire.sent(
                LlmWire.text(request.get("system")),
                request.get("temperature"),
                request.get("max_tokens"),
                schema.isObject() ? "schema" : "text",
                schema,
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
        ObjectNode message = message(request, prompt, completion);
        message.putArray("content").addObject().put("type", "text").put("text", text);
        message.put("stop_reason", "end_turn");
        return message;
    }

    private static ObjectNode message(JsonNode request, int prompt, int completion) {
        ObjectNode message = MAPPER.createObjectNode()
                .put("id", "msg_fake")
                .put("type", "message")
                .put("role", "assistant")
                .put("model", request.path("model").asText());
        message.putArray("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", prompt).put("output_tokens", completion);
        return message;
    }

    @Override
    public void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion)
            throws IOException {
        ObjectNode start = MAPPER.createObjectNode().put("type", "message_start");
        start.set("message", message(request, prompt, 1));
        out.event("message_start", start.toString());
        ObjectNode blockStart =
                MAPPER.createObjectNode().put("type", "content_block_start").put("index", 0);
        blockStart.putObject("content_block").put("type", "text").put("text", "");
        out.event("content_block_start", blockStart.toString());
        out.event("ping", "{\"type\": \"ping\"}");
        for (String piece : pieces) {
            if (!out.pause()) {
                return;
            }
            ObjectNode delta =
                    MAPPER.createObjectNode().put("type", "content_block_delta").put("index", 0);
            delta.putObject("delta").put("type", "text_delta").put("text", piece);
            out.event("content_block_delta", delta.toString());
        }
        out.event("content_block_stop", "{\"type\": \"content_block_stop\", \"index\": 0}");
        ObjectNode end = MAPPER.createObjectNode().put("type", "message_delta");
        end.putObject("delta").put("stop_reason", "end_turn").putNull("stop_sequence");
        end.putObject("usage").put("output_tokens", completion);
        out.event("message_delta", end.toString());
        out.event("message_stop", "{\"type\": \"message_stop\"}");
    }

    @Override
    public ObjectNode error(int status, String message) {
        ObjectNode body = MAPPER.createObjectNode().put("type", "error");
        String type = switch (status) {
            case 400 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> "api_error";
        };
        body.putObject("error").put("type", type).put("message", message);
        return body;
    }

    @Override
    public RateLimit rateLimit(int seconds) {
        String reset = Instant.now()
                .plusSeconds(seconds)
                .truncatedTo(ChronoUnit.SECONDS)
                .toString();
        return new RateLimit(
                429,
                Map.of(
                        "retry-after",
                        String.valueOf(seconds),
                        "anthropic-ratelimit-requests-limit",
                        "50",
                        "anthropic-ratelimit-requests-remaining",
                        "0",
                        "anthropic-ratelimit-requests-reset",
                        reset),
                error(429, "This request would exceed your organization's rate limit of 50 requests per minute."));
    }
}
