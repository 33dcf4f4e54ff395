package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.exception.TimeoutException;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.ToolException;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

/**
 * Turns what a langchain4j chat model throws into a {@link ToolException}: a plain sentence and the
 * right {@code retriable} flag (HTTP 429 and 5xx, timeouts and I/O errors are retriable; other 4xx
 * are not) and, for an HTTP error, the server's {@code Retry-After} ({@link ToolException#retryAfter()}).
 * Messages never hold the API key.
 *
 * @param serverUrl the server's URL for messages, or null when unknown
 * @param timeout   the configured timeout, or null when unknown (the measured wait is named then)
 * @param apiKey    the key to mask in messages, or null
 * @param provider  the provider, whose variables a hint names; null when unknown (OpenAI's are named)
 */
record LlmFailures(String serverUrl, Duration timeout, String apiKey, LlmProvider provider) {

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);
    private static final int MAX_BODY = 200;

    /** Failures of a model we know nothing about. */
    static LlmFailures unknownServer() {
        return new LlmFailures(null, null, null, null);
    }

    static LlmFailures of(LlmConfig config) {
        return new LlmFailures(config.serverUrl(), config.timeout(), config.apiKey(), config.provider());
    }

    /**
     * The failure {@code e}, thrown by a call that had run for {@code elapsed}. Every text from the
     * server is redacted before it is cut to length, so a cut never keeps part of the key.
     */
    ToolException map(RuntimeException e, Duration elapsed) {
        ToolException mapped = classify(e, elapsed);
        String message = LlmText.redact(mapped.getMessage(), apiKey);
        // The cause helps debugging, unless a message in it (a server's echo) holds the key.
        return mapped.withMessage(message, showsKey(e) ? null : e);
    }

    private boolean showsKey(Throwable e) {
        if (apiKey == null) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(apiKey)) {
                return true;
            }
        }
        return false;
    }

    private ToolException classify(RuntimeException e, Duration elapsed) {
        LlmAnswerException answer = find(e, LlmAnswerException.class);
        if (answer != null) {
            return new ToolException(
                    answer.kind() == LlmAnswerException.Kind.TOO_LARGE
                            ? "the LLM server" + at() + " answered with more than "
                                    + dev.planvm.json.BoundedHttp.describeBytes(answer.limit())
                                    + " (PLANVM_LLM_MAX_RESPONSE_BYTES); the answer was not read to the end"
                            : "the LLM server" + at() + " answered " + answer.status()
                                    + " with a body that is not JSON: " + answer.getMessage(),
                    false);
        }
        HttpException http = find(e, HttpException.class);
        if (http != null) {
            Duration retryAfter = http instanceof HttpStatusException status
                    ? status.retryAfter().orElse(null)
                    : null;
            return httpStatus(
                    http.statusCode(),
                    http.getMessage() == null ? null : LlmText.redact(http.getMessage(), apiKey),
                    retryAfter);
        }
        if (find(e, HttpConnectTimeoutException.class) != null) {
            return new ToolException(unreachable("the connection timed out"), true);
        }
        if (find(e, HttpTimeoutException.class) != null || find(e, TimeoutException.class) != null) {
            return new ToolException("the LLM call timed out after " + LlmText.seconds(waited(elapsed)), true);
        }
        if (find(e, UnresolvedAddressException.class) != null) {
            return new ToolException(unreachable("unknown host"), false);
        }
        if (find(e, InterruptedException.class) != null) {
            return new ToolException("the LLM call was interrupted", false);
        }
        ConnectException refused = find(e, ConnectException.class);
        if (refused != null) {
            return new ToolException(unreachable(reason(refused, "connection refused")), true);
        }
        if (find(e, EOFException.class) != null) {
            return new ToolException("the LLM server" + at() + " closed the connection without answering", true);
        }
        IOException io = find(e, IOException.class);
        if (io != null) {
            return new ToolException(
                    "the connection to the LLM server" + at() + " failed: "
                            + reason(io, io.getClass().getSimpleName()),
                    true);
        }
        String detail = e.getMessage() == null
                ? e.getClass().getSimpleName()
                : LlmText.shorten(LlmText.redact(e.getMessage(), apiKey), MAX_BODY);
        return new ToolException("the LLM call failed: " + detail, e instanceof RetriableException);
    }

    private ToolException httpStatus(int status, String body, Duration retryAfter) {
        boolean retriable = status == 408 || status == 429 || status >= 500;
        String detail = describeBody(body);
        LlmProvider named = provider == null ? LlmProvider.OPENAI : provider;
        String hint = "";
        if (status == 401 || status == 403) {
            hint = " (check " + String.join(" or ", named.keyVariables()) + ")";
        } else if (status == 404) {
            hint = named == LlmProvider.AZURE_OPENAI
                    ? " (check " + LlmProvider.AZURE_DEPLOYMENT_VARIABLE + " and " + named.urlVariable() + ")"
                    : " (check PLANVM_MODEL and " + named.urlVariable() + ")";
        }
        String message = "the LLM server answered HTTP " + status + (detail.isEmpty() ? "" : ": " + detail) + hint;
        if (status == 429 || status == 503) { // overloaded: the LLM's concurrency limit shrinks too
            return ToolException.overloaded(message, retryAfter);
        }
        return new ToolException(message, retriable, null, retriable ? retryAfter : null);
    }

    /**
     * The error message of an error body — {@code {"error": {"message": ...}}} (OpenAI, Azure, Anthropic, Gemini),
     * {@code {"error": "..."}} (Ollama), {@code {"message": ...}} (Mistral) — else the body.
     */
    private static String describeBody(String body) {
        if (body == null) {
            return "";
        }
        String text = body;
        try {
            JsonNode error = MAPPER.readTree(body).path("error");
            if (error.path("message").isTextual()) {
                text = error.path("message").asText();
            } else if (error.isTextual()) {
                text = error.asText();
            } else if (MAPPER.readTree(body).path("message").isTextual()) {
                text = MAPPER.readTree(body).path("message").asText();
            }
        } catch (IOException | RuntimeException notJson) {
            // the body as it is
        }
        return LlmText.shorten(text, MAX_BODY);
    }

    private String unreachable(String reason) {
        return "cannot reach the LLM server" + at() + ": " + reason;
    }

    private String at() {
        return serverUrl == null ? "" : " at " + serverUrl;
    }

    private Duration waited(Duration elapsed) {
        if (timeout != null) {
            return timeout;
        }
        return elapsed.toMillis() < 1000 ? elapsed : Duration.ofSeconds(Math.round(elapsed.toMillis() / 1000.0));
    }

    private String reason(IOException e, String fallback) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? fallback : LlmText.redact(message, apiKey);
    }

    /** The first throwable of type {@code type} in the cause chain of {@code e}, or null. */
    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
