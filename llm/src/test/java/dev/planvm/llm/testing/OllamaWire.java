package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ollama's native chat API: {@code POST /api/chat}, no key on a local server; {@code model} and {@code messages}
 * (roles {@code system}, {@code user}, {@code assistant}, {@code tool}; {@code content} a string), {@code format}
 * ({@code "json"} or a JSON Schema), {@code options} ({@code temperature}, {@code num_predict}, ...), and
 * {@code stream}, which is <em>true when absent</em>. The answer has {@code message}, {@code done: true},
 * {@code done_reason} and the counts {@code prompt_eval_count} / {@code eval_count}; a stream is
 * newline-delimited JSON ({@code application/x-ndjson}), one object per piece with {@code done: false}, then a
 * last one with {@code done: true} and the counts. Errors are {@code {"error": "..."}}; a server whose queue is
 * full answers 503 ("server busy"), with no hint of how long to wait.
 */
public final class OllamaWire implements LlmWire {

    private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

    @Override
    public String provider() {
        return "ollama";
    }

    @Override
    public Map<String, String> environment(String origin, String key) {
        return Map.of("OLLAMA_BASE_URL", origin);
    }

    @Override
    public Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key) {
        if (!method.equals("POST") || !path.equals("/api/chat")) {
            return new Refusal(404, "404 page not found");
        }
        if (!body.path("model").isTextual() || body.path("model").asText().isBlank()) {
            return new Refusal(400, "model is required");
        }
        for (JsonNode message : body.path("messages")) {
            if (!ROLES.contains(message.path("role").asText())) {
                return new Refusal(400, "invalid role: " + message.path("role").asText());
            }
            if (!message.path("content").isTextual()) {
                return new Refusal(
                        400,
                        "json: cannot unmarshal "
                                + message.path("content").getNodeType().name().toLowerCase()
                                + " into Go struct field Message.messages.content of type string");
            }
        }
        JsonNode format = body.get("format");
        if (format != null && !format.isNull() && !format.isObject() && !"json".equals(format.asText())) {
            return new Refusal(400, "invalid format: " + format + ", expected \"json\" or a JSON schema");
        }
        if (body.has("options") && !body.get("options").isObject()) {
            return new Refusal(400, "json: cannot unmarshal options");
        }
        return null;
    }

    @Override
    public Sent sent(String path, JsonNode request) {
        JsonNode format = request.path("format");
        return LlmWire.sent(
                LlmWire.systemMessages(request.path("messages")),
                request.at("/options/temperature"),
                request.at("/options/num_predict"),
                format.isObject() ? "schema" : format.asText().equals("json") ? "json" : "text",
                format,
                request.path("model").asText());
    }

    @Override
    public boolean streams(String path, String query, JsonNode body) {
        return body.path("stream").asBoolean(true);
    }

    @Override
    public String model(String path, JsonNode body) {
        return body.path("model").asText();
    }

    @Override
    public String streamType() {
        return "application/x-ndjson";
    }

    @Override
    public ObjectNode answer(JsonNode request, String text, int prompt, int completion) {
        ObjectNode answer = piece(request, text);
        answer.put("done_reason", "stop").put("done", true);
        answer.put("total_duration", 5_000_000L).put("load_duration", 1_000_000L);
        answer.put("prompt_eval_count", prompt).put("prompt_eval_duration", 1_000_000L);
        answer.put("eval_count", completion).put("eval_duration", 2_000_000L);
        return answer;
    }

    private static ObjectNode piece(JsonNode request, String text) {
        ObjectNode piece = MAPPER.createObjectNode()
                .put("model", request.path("model").asText())
                .put("created_at", "2026-11-28T10:00:00.000000Z");
        piece.putObject("message").put("role", "assistant").put("content", text);
        return piece;
    }

    @Override
    public void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion)
            throws IOException {
        for (String text : pieces) {
            if (!out.pause()) {
                return;
            }
            out.line(piece(request, text).put("done", false).toString());
        }
        out.line(answer(request, "", prompt, completion).toString());
    }

    @Override
    public ObjectNode error(int status, String message) {
        return MAPPER.createObjectNode().put("error", message);
    }

    @Override
    public RateLimit rateLimit(int seconds) {
        return new RateLimit(
                503, Map.of(), error(503, "server busy, please try again.  maximum pending requests exceeded"));
    }
}
