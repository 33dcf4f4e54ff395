package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Gemini API: {@code POST /v1beta/models/MODEL:generateContent}, or {@code :streamGenerateContent?alt=sse}
 * for server-sent events, the key in {@code x-goog-api-key} (or {@code ?key=}); a {@code GenerateContentRequest}
 * of {@code contents} (roles {@code user} and {@code model}, {@code parts} of {@code text}),
 * {@code systemInstruction} and {@code generationConfig} (an unknown field is refused: "Invalid JSON payload
 * received. Unknown name"); {@code responseJsonSchema} needs {@code responseMimeType: application/json} and
 * excludes {@code responseSchema}; {@code temperature} from 0 to 2. The answer has {@code candidates} and
 * {@code usageMetadata} ({@code promptTokenCount}, {@code candidatesTokenCount}); a stream is one such answer per
 * event, the last with {@code finishReason: STOP}. Errors are {@code {"error": {"code", "message", "status"}}};
 * a rate limit is 429 {@code RESOURCE_EXHAUSTED} whose {@code google.rpc.RetryInfo} detail says how long to wait.
 */
public final class GeminiWire implements LlmWire {

    private static final Pattern PATH =
            Pattern.compile("/v1beta/models/([^/:]+):(generateContent|streamGenerateContent)");
    private static final Set<String> FIELDS = Set.of(
            "contents",
            "tools",
            "toolConfig",
            "safetySettings",
            "systemInstruction",
            "generationConfig",
            "cachedContent");
    private static final Set<String> CONFIG = Set.of(
            "stopSequences",
            "responseMimeType",
            "responseSchema",
            "responseJsonSchema",
            "responseModalities",
            "candidateCount",
            "maxOutputTokens",
            "temperature",
            "topP",
            "topK",
            "seed",
            "presencePenalty",
            "frequencyPenalty",
            "responseLogprobs",
            "logprobs",
            "enableEnhancedCivicAnswers",
            "speechConfig",
            "thinkingConfig",
            "mediaResolution");

    @Override
    public String provider() {
        return "gemini";
    }

    @Override
    public Map<String, String> environment(String origin, String key) {
        return Map.of("GEMINI_API_KEY", key, "GOOGLE_GEMINI_BASE_URL", origin);
    }

    @Override
    public Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key) {
        Matcher matcher = PATH.matcher(path);
        if (!method.equals("POST") || !matcher.matches()) {
            return new Refusal(404, "Method not found.");
        }
        String given = LlmWire.header(headers, "x-goog-api-key");
        if (given == null && query != null && query.contains("key=")) {
            given = query.replaceAll(".*key=([^&]*).*", "$1");
        }
        if (!key.equals(given)) {
            return new Refusal(400, "API key not valid. Please pass a valid API key.");
        }
        if (matcher.group(2).equals("streamGenerateContent") && (query == null || !query.contains("alt=sse"))) {
            return new Refusal(400, "this fake streams server-sent events only (alt=sse)");
        }
        String unknown = LlmWire.unknownField(body, FIELDS);
        JsonNode config = body.path("generationConfig");
        if (unknown == null && config.isObject()) {
            unknown = LlmWire.unknownField(config, CONFIG);
        }
        if (unknown != null) {
            return new Refusal(
                    400, "Invalid JSON payload received. Unknown name \"" + unknown + "\": Cannot find field.");
        }
        if (!body.path("contents").isArray() || body.path("contents").isEmpty()) {
            return new Refusal(400, "* GenerateContentRequest.contents: contents is not specified");
        }
        for (JsonNode content : body.get("contents")) {
            String role = content.path("role").asText("user");
            if (!role.equals("user") && !role.equals("model")) {
                return new Refusal(400, "Please use a valid role: user, model.");
            }
            if (!content.path("parts").isArray() || content.path("parts").isEmpty()) {
                return new Refusal(400, "* GenerateContentRequest.contents.parts: contents.parts must not be empty.");
            }
        }
        double temperature = config.path("temperature").asDouble(1);
        if (temperature < 0 || temperature > 2) {
            return new Refusal(400, "* GenerateContentRequest.generation_config.temperature: must be in [0.0, 2.0]");
        }
        if (config.has("responseJsonSchema") && config.has("responseSchema")) {
            return new Refusal(400, "responseJsonSchema and responseSchema cannot both be set");
        }
        if ((config.has("responseJsonSchema") || config.has("responseSchema"))
                && !config.path("responseMimeType").asText().equals("application/json")) {
            return new Refusal(400, "responseMimeType must be application/json with a response schema");
        }
        return null;
    }

    @Override
    public Sent sent(String path, JsonNode request) {
        JsonNode config = request.path("generationConfig");
        JsonNode schema =
                config.has("responseJsonSchema") ? config.get("responseJsonSchema") : config.path("responseSchema");
        String kind = schema.isObject()
                ? "schema"
                : config.path("responseMimeType").asText().equals("application/json") ? "json" : "text";
        return LlmWire.sent(
                LlmWire.text(request.at("/systemInstruction/parts")),
                config.get("temperature"),
                config.get("maxOutputTokens"),
                kind,
                schema,
                model(path, request));
    }

    @Override
    public boolean streams(String path, String query, JsonNode body) {
        return path.endsWith(":streamGenerateContent");
    }

    @Override
    public String model(String path, JsonNode body) {
        Matcher matcher = PATH.matcher(path);
        return matcher.matches() ? matcher.group(1) : "";
    }

    @Override
    public ObjectNode answer(JsonNode request, String text, int prompt, int completion) {
        return response(text, "STOP", prompt, completion);
    }

    private static ObjectNode response(String text, String finish, int prompt, int completion) {
        ObjectNode response = MAPPER.createObjectNode();
        ArrayNode candidates = response.putArray("candidates");
        ObjectNode candidate = candidates.addObject();
        ObjectNode content = candidate.putObject("content");
        content.putArray("parts").addObject().put("text", text);
        content.put("role", "model");
        if (finish != null) {
            candidate.put("finishReason", finish);
        }
        candidate.put("index", 0);
        response.putObject("usageMetadata")
                .put("promptTokenCount", prompt)
                .put("candidatesTokenCount", completion)
                .put("totalTokenCount", prompt + completion);
        response.put("modelVersion", "gemini-fake");
        return response;
    }

    @Override
    public void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion)
            throws IOException {
        for (int i = 0; i < pieces.size(); i++) {
            if (!out.pause()) {
                return;
            }
            boolean last = i == pieces.size() - 1;
            out.event(
                    null,
                    response(pieces.get(i), last ? "STOP" : null, prompt, last ? completion : i)
                            .toString());
        }
        if (pieces.isEmpty()) {
            out.event(null, response("", "STOP", prompt, completion).toString());
        }
    }

    @Override
    public ObjectNode error(int status, String message) {
        ObjectNode body = MAPPER.createObjectNode();
        String code = switch (status) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 503 -> "UNAVAILABLE";
            default -> "INTERNAL";
        };
        body.putObject("error").put("code", status).put("message", message).put("status", code);
        return body;
    }

    @Override
    public RateLimit rateLimit(int seconds) {
        ObjectNode body = error(429, "You exceeded your current quota, please check your plan and billing details.");
        ArrayNode details = ((ObjectNode) body.get("error")).putArray("details");
        details.addObject()
                .put("@type", "type.googleapis.com/google.rpc.QuotaFailure")
                .putArray("violations")
                .addObject()
                .put("quotaMetric", "generativelanguage.googleapis.com/generate_content_free_tier_requests");
        details.addObject()
                .put("@type", "type.googleapis.com/google.rpc.RetryInfo")
                .put("retryDelay", seconds + "s");
        return new RateLimit(429, Map.of(), body);
    }
}
