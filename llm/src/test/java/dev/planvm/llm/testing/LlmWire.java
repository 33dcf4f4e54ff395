package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One provider's wire protocol, as its published API reference describes it (not as langchain4j writes it):
 * where requests go, how they authenticate, what a request may and must hold, what an answer, a streamed
 * answer, an error and a rate limit look like. {@link FakeLlmServer} speaks it on loopback; a request the
 * reference would refuse is refused the provider's way (status and error body), so a client that drifts
 * from the wire fails its tests.
 */
public interface LlmWire {

    ObjectMapper MAPPER = new ObjectMapper();

    /** The provider's id ({@code anthropic}). */
    String provider();

    /**
     * The environment variables that point planvm at a fake at {@code origin} ({@code http://127.0.0.1:PORT})
     * with {@code key}: only this provider's.
     */
    Map<String, String> environment(String origin, String key);

    /**
     * Why the request must be refused, or null when it is well-formed: a status and a message. Checks the path,
     * the authentication ({@code key}), and the body's shape.
     */
    Refusal check(String method, String path, String query, Headers headers, JsonNode body, String key);

    /** A refusal: the status and the message of the provider's error body. */
    record Refusal(int status, String message) {}

    /** Whether the request asks for a streamed answer. */
    boolean streams(String path, String query, JsonNode body);

    /** The model the request names. */
    String model(String path, JsonNode body);

    /**
     * What a well-formed request asks for, read where this provider carries it: the system prompt (all of it), the
     * temperature, the most tokens to answer with, the answer's format ({@code text}, {@code json} or
     * {@code schema}) and schema, the model.
     */
    Sent sent(String path, JsonNode request);

    /** What a request asks for (nulls where it says nothing). */
    record Sent(String system, Double temperature, Integer maxTokens, String format, JsonNode schema, String model) {}

    /** The texts of a string or a list of {@code {"type": "text", "text"}} blocks, joined by newlines. */
    static String text(JsonNode content) {
        if (content == null || content.isMissingNode() || content.isNull()) {
            return null;
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode block : content) {
            JsonNode part = block.has("text") ? block.get("text") : block;
            text.append(text.length() == 0 ? "" : "\n").append(part.asText());
        }
        return text.toString();
    }

    /** The system messages of a {@code messages} list (roles {@code system}, {@code developer}), joined. */
    static String systemMessages(JsonNode messages) {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : messages) {
            String role = message.path("role").asText();
            if (role.equals("system") || role.equals("developer")) {
                text.append(text.length() == 0 ? "" : "\n").append(text(message.get("content")));
            }
        }
        return text.length() == 0 ? null : text.toString();
    }

    private static Double number(JsonNode value) {
        return value == null || !value.isNumber() ? null : value.asDouble();
    }

    private static Integer integer(JsonNode value) {
        return value == null || !value.canConvertToInt() ? null : value.asInt();
    }

    /** A {@link Sent} from the nodes where a provider carries each thing. */
    static Sent sent(
            String system, JsonNode temperature, JsonNode maxTokens, String format, JsonNode schema, String model) {
        return new Sent(system, number(temperature), integer(maxTokens), format, schema, model);
    }

    /** A whole answer holding {@code text}, counting {@code prompt} and {@code completion} tokens. */
    ObjectNode answer(JsonNode request, String text, int prompt, int completion);

    /** The content type of a streamed answer. */
    default String streamType() {
        return "text/event-stream";
    }

    /** Writes a streamed answer made of {@code pieces}, ending the way the provider ends one. */
    void stream(Stream out, JsonNode request, List<String> pieces, int prompt, int completion) throws IOException;

    /** The provider's error body for {@code status} with {@code message}. */
    ObjectNode error(int status, String message);

    /**
     * A rate-limit answer asking to wait {@code seconds}, the provider's way: status, headers and body.
     *
     * @return the status, the headers, and the body
     */
    RateLimit rateLimit(int seconds);

    /** A rate-limit answer. */
    record RateLimit(int status, Map<String, String> headers, ObjectNode body) {}

    /** Where a streamed answer is written: events or lines, flushed one by one; {@link #pause} paces them. */
    interface Stream {
        void event(String name, String data) throws IOException;

        void line(String data) throws IOException;

        /** Waits before the next piece; false when the server is closing. */
        boolean pause();
    }

    /** Writes server-sent events or lines to {@code out}. */
    static Stream stream(OutputStream out, java.util.function.BooleanSupplier pause) {
        return new Stream() {
            @Override
            public void event(String name, String data) throws IOException {
                String event = (name == null ? "" : "event: " + name + "\n") + "data: " + data + "\n\n";
                out.write(event.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }

            @Override
            public void line(String data) throws IOException {
                out.write((data + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }

            @Override
            public boolean pause() {
                return pause.getAsBoolean();
            }
        };
    }

    /** The six wires. */
    static List<LlmWire> all() {
        return List.of(
                OpenAiWire.openAi(),
                new AnthropicWire(),
                new GeminiWire(),
                new OllamaWire(),
                OpenAiWire.azure(),
                new MistralWire());
    }

    /** The wire of provider {@code id}. */
    static LlmWire of(String id) {
        return all().stream()
                .filter(wire -> wire.provider().equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no wire for " + id));
    }

    /** Fields not in {@code known}, for "unknown field" refusals. */
    static String unknownField(JsonNode object, java.util.Set<String> known) {
        for (String name : (Iterable<String>) object::fieldNames) {
            if (!known.contains(name)) {
                return name;
            }
        }
        return null;
    }

    /** The first header {@code name} of {@code headers}, or null. */
    static String header(Headers headers, String name) {
        return headers.getFirst(name);
    }
}
