package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * OpenAI's Chat Completions ({@code POST /v1/chat/completions}, {@code Authorization: Bearer KEY}), and Azure
 * OpenAI's v1 API, the same body at {@code ENDPOINT/openai/v1/chat/completions} with an {@code api-key} header
 * and the deployment as the model. An unknown request field is refused ("Unrecognized request argument"); a
 * {@code json_schema} response format with {@code "strict": true} must follow the strict rules of structured
 * outputs ({@link StrictSchemaRules}). Streams are {@code chat.completion.chunk} events, the usage in a last chunk
 * when {@code stream_options.include_usage} asks for it, then {@code [DONE]}. Rate limits: OpenAI says when its
 * exhausted limit resets ({@code x-ratelimit-reset-requests: 2s}); Azure sends {@code retry-after}.
 */
public final class OpenAiWire implements LlmWire {

    /** The deployment the Azure fake serves. */
    public static final String DEPLOYMENT = "planvm-deployment";

    private static final Set<String> FIELDS = Set.of(
            "model",
            "messages",
            "temperature",
            "top_p",
            "n",
            "stream",
            "stream_options",
            "stop",
            "max_tokens",
            "max_completion_tokens",
            "presence_penalty",
            "frequency_penalty",
            "logit_bias",
            "user",
            "response_format",
            "seed",
            "tools",
            "tool_choice",
            "parallel_tool_calls",
            "store",
            "metadata",
            "service_tier",
            "reasoning_effort",
            "logprobs",
            "top_logprobs",
            "modalities",
            "prediction",
            "verbosity");
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    private final boolean azure;

    private OpenAiWire(boolean azure) {
        this.azure = azure;
    }

    public static OpenAiWire openAi() {
        return new OpenAiWire(false);
    }

    public static OpenAiWire azure() {
        return new OpenAiWire(true);
    }

    @Override
    public String provider() {
        return azure ? "azure-openai" : "openai";
    }

    @Override
    public Map<String, String> environment(String origin, String key) {
        return azure
                ? Map.of(
                        "AZURE_OPENAI_ENDPOINT",
                        origin,
                        "AZURE_OPENAI_API_KEY",
                        key,
                        "AZURE_OPENAI_DEPLOYMENT",
                        DEPLOYMENT)
                : Map.of("OPENAI_BASE_URL", origin + "/v1", "OPENAI_API_KEY", key);
    }

    @Override
    public Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key) {
        String expected = azure ? "/openai/v1/chat/completions" : "/v1/chat/completions";
        if (!method.equals("POST") || !path.equals(expected)) {
            return new Refusal(404, "Unknown request URL: " + method + " " + path);
        }
        String auth = azure ? LlmWire.header(headers, "api-key") : LlmWire.header(headers, "Authorization");
        if (auth == null || !auth.equals(azure ? key : "Bearer " + key)) {
            return new Refusal(
                    401,
                    azure
                            ? "Access denied due to invalid subscription key or wrong API endpoint."
                            : "Incorrect API key provided.");
        }
        String unknown = LlmWire.unknownField(body, FIELDS);
        if (unknown != null) {
            return new Refusal(400, "Unrecognized request argument supplied: " + unknown);
        }
        if (!body.path("model").isTextual()
                || !body.path("messages").isArray()
                || body.path("messages").isEmpty()) {
            return new Refusal(400, "'model' and a non-empty 'messages' are required");
        }
        if (azure && !body.path("model").asText().equals(DEPLOYMENT)) {
            return new Refusal(404, "The API deployment for this resource does not exist.");
        }
        for (JsonNode message : body.get("messages")) {
            if (!ROLES.contains(message.path("role").asText())) {
                return new Refusal(400, "Invalid value for 'messages[].role': " + message.path("role"));
            }
        }
        double temperature = body.path("temperature").asDouble(1);
        if (temperature < 0 || temperature > 2) {
            return new Refusal(400, "Invalid 'temperature': must be between 0 and 2");
        }
        JsonNode format = body.path("response_format");
        if (format.path("type").asText().equals("json_schema")) {
            JsonNode jsonSchema = format.path("json_schema");
            if (!jsonSchema.path("name").isTextual()) {
                return new Refusal(400, "Missing required parameter: 'response_format.json_schema.name'");
            }
            if (jsonSchema.path("strict").asBoolean(false)) {
                String problem = StrictSchemaRules.problem(jsonSchema.path("schema"));
                if (problem != null) {
                    return new Refusal(
                            400,
                            "Invalid schema for response_format '"
                                    + jsonSchema.path("name").asText() + "': " + problem);
                }
            }
        }
        return null;
    }

    @Override
    public Sent sent(String path, JsonNode request) {
        JsonNode format = request.path("response_format");
        String kind = switch (format.path("type").asText("text")) {
            case "json_object" -> "json";
            case "json_schema" -> "schema";
            default -> "text";
        };
        JsonNode max =
                request.has("max_completion_tokens") ? request.get("max_completion_tokens") : request.get("max_tokens");
        return LlmWire.sent(
                LlmWire.systemMessages(request.path("messages")),
                request.get("temperature"),
                max,
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
        ObjectNode answer = MAPPER.createObjectNode()
                .put("id", "chatcmpl-fake")
                .put("object", "chat.completion")
                .put("created", 1_700_000_000)
                .put("model", request.path("model").asText());
        ObjectNode choice = answer.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", text);
        choice.put("finish_reason", "stop");
        answer.set("usage", usage(prompt, completion));
        return answer;
    }

    @Override
    public void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion)
            throws IOException {
        out.event(null, chunk(request, "", null).toString());
        for (String piece : pieces) {
            if (!out.pause()) {
                return;
            }
            out.event(null, chunk(request, piece, null).toString());
        }
        out.event(null, chunk(request, null, "stop").toString());
        if (request.at("/stream_options/include_usage").asBoolean(false)) {
            ObjectNode usage = chunk(request, null, null);
            usage.putArray("choices");
            usage.set("usage", usage(prompt, completion));
            out.event(null, usage.toString());
        }
        out.event(null, "[DONE]");
    }

    private static ObjectNode chunk(JsonNode request, String content, String finish) {
        ObjectNode chunk = MAPPER.createObjectNode()
                .put("id", "chatcmpl-fake")
                .put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000)
                .put("model", request.path("model").asText());
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (content != null) {
            delta.put("role", "assistant").put("content", content);
        }
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return chunk;
    }

    private static ObjectNode usage(int prompt, int completion) {
        return MAPPER.createObjectNode()
                .put("prompt_tokens", prompt)
                .put("completion_tokens", completion)
                .put("total_tokens", prompt + completion);
    }

    @Override
    public ObjectNode error(int status, String message) {
        ObjectNode body = MAPPER.createObjectNode();
        ObjectNode error = body.putObject("error").put("message", message);
        if (azure) {
            error.put("code", String.valueOf(status));
        } else {
            error.put("type", status == 401 ? "invalid_request_error" : status == 429 ? "requests" : "server_error");
            error.putNull("param");
            error.put("code", status == 401 ? "invalid_api_key" : status == 429 ? "rate_limit_exceeded" : null);
        }
        return body;
    }

    @Override
    public RateLimit rateLimit(int seconds) {
        if (azure) {
            return new RateLimit(
                    429,
                    Map.of("retry-after", String.valueOf(seconds)),
                    error(
                            429,
                            "Requests to the ChatCompletions_Create Operation have exceeded the call rate limit. "
                                    + "Please retry after " + seconds + " seconds."));
        }
        return new RateLimit(
                429,
                Map.of(
                        "x-ratelimit-limit-requests", "500",
                        "x-ratelimit-remaining-requests", "0",
                        "x-ratelimit-reset-requests", seconds + "s",
                        "x-ratelimit-remaining-tokens", "1000",
                        "x-ratelimit-reset-tokens", "20ms"),
                error(429, "Rate limit reached for requests. Please try again in " + seconds + "s."));
    }
}
