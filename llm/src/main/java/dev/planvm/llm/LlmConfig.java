package dev.planvm.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.planvm.json.BoundedHttp;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to reach the chat model behind {@code llm_generate} and LLM conditions: an OpenAI-compatible
 * server (OpenAI itself, or Ollama, vLLM, LM Studio, ... through a base URL).
 *
 * @param apiKey  the API key, or null when the server needs none (only with a base URL)
 * @param baseUrl the server's base URL ({@code http://localhost:11434/v1}), or null for OpenAI
 * @param model   the model name sent with every request
 * @param timeout how long one LLM call may take (connect and answer, the whole body included)
 * @param maxResponseBytes the largest answer read, in bytes; a larger one fails without being read
 *                         to the end
 */
public record LlmConfig(String apiKey, String baseUrl, String model, Duration timeout, long maxResponseBytes) {

    /** What to tell the user when a plan needs an LLM and none is configured. */
    public static final String NOT_CONFIGURED = "no LLM is configured: set OPENAI_API_KEY (OpenAI) or "
            + "OPENAI_BASE_URL (any OpenAI-compatible server, e.g. Ollama, vLLM, LM Studio), "
            + "and optionally PLANVM_MODEL (default gpt-4o-mini)";

    /** The model used when {@code PLANVM_MODEL} is unset. */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";

    /** The timeout used when {@code PLANVM_LLM_TIMEOUT_SECONDS} is unset. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The answer cap used when {@code PLANVM_LLM_MAX_RESPONSE_BYTES} is unset: 16 MiB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = StatusHttpClient.DEFAULT_MAX_RESPONSE_BYTES;

    private static final Pattern SIZE =
            Pattern.compile("(\\d{1,15})\\s*(?:([kmg])(?:i?b)?|b)?", Pattern.CASE_INSENSITIVE);

    static final String OPENAI_URL = "https://api.openai.com/v1";

    /** Sent when a base URL is given without a key: most local servers ignore it, some want one. */
    private static final String PLACEHOLDER_KEY = "not-needed";

    public LlmConfig {
        apiKey = blankToNull(apiKey);
        baseUrl = blankToNull(baseUrl);
        if (apiKey == null && baseUrl == null) {
            throw new IllegalArgumentException(NOT_CONFIGURED);
        }
        if (blankToNull(model) == null) {
            throw new IllegalArgumentException("the LLM model name must not be blank");
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the LLM timeout must be positive, not " + timeout);
        }
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException("the LLM answer cap must be positive, not " + maxResponseBytes);
        }
    }

    /** A configuration with the default answer cap ({@link #DEFAULT_MAX_RESPONSE_BYTES}). */
    public LlmConfig(String apiKey, String baseUrl, String model, Duration timeout) {
        this(apiKey, baseUrl, model, timeout, DEFAULT_MAX_RESPONSE_BYTES);
    }

    /**
     * The configuration the environment describes ({@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL},
     * {@code PLANVM_MODEL}, {@code PLANVM_LLM_TIMEOUT_SECONDS}, {@code PLANVM_LLM_MAX_RESPONSE_BYTES}:
     * bytes, or a number with KiB, MiB or GiB); empty when neither the key nor the base URL is set.
     * Blank values count as unset.
     *
     * @throws IllegalArgumentException when {@code PLANVM_LLM_TIMEOUT_SECONDS} is not a positive
     *                                  number, or {@code PLANVM_LLM_MAX_RESPONSE_BYTES} not a size
     */
    public static Optional<LlmConfig> fromEnvironment(Map<String, String> env) {
        String apiKey = blankToNull(env.get("OPENAI_API_KEY"));
        String baseUrl = blankToNull(env.get("OPENAI_BASE_URL"));
        if (apiKey == null && baseUrl == null) {
            return Optional.empty();
        }
        String model = Objects.requireNonNullElse(blankToNull(env.get("PLANVM_MODEL")), DEFAULT_MODEL);
        Duration timeout = timeout(blankToNull(env.get("PLANVM_LLM_TIMEOUT_SECONDS")));
        long cap = bytes(blankToNull(env.get("PLANVM_LLM_MAX_RESPONSE_BYTES")));
        return Optional.of(new LlmConfig(apiKey, baseUrl, model, timeout, cap));
    }

    /** The URL requests go to: the base URL, or OpenAI's. */
    public String serverUrl() {
        return baseUrl == null ? OPENAI_URL : baseUrl;
    }

    /**
     * A chat model for this configuration. It never retries by itself ({@code maxRetries(0)}):
     * planvm's retry link does, and two retry loops would multiply. Nothing is logged. It speaks
     * HTTP/1.1: the JDK client's default, an HTTP/2 upgrade on {@code http://} URLs, makes
     * uvicorn-based servers (vLLM) and LM Studio drop the request body. Its HTTP client keeps an
     * error answer's {@code Retry-After}, so the retry link waits as long as the server asks.
     */
    public ChatModel chatModel() {
        return chatModel(false);
    }

    /**
     * As {@link #chatModel()}; with {@code strictJsonSchema}, a request for a JSON Schema answer asks
     * the server to hold the answer to it exactly ({@code "strict": true}, OpenAI's structured outputs).
     */
    ChatModel chatModel(boolean strictJsonSchema) {
        OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                .strictJsonSchema(strictJsonSchema)
                .httpClientBuilder(StatusHttpClient.builder().maxResponseBytes(maxResponseBytes))
                .apiKey(apiKey == null ? PLACEHOLDER_KEY : apiKey)
                .modelName(model)
                .timeout(timeout)
                .maxRetries(0)
                .logRequests(false)
                .logResponses(false);
        if (baseUrl != null) {
            builder.baseUrl(baseUrl);
        }
        return builder.build();
    }

    /**
     * A chat model that streams its answers (server-sent events), configured like {@link #chatModel(boolean)};
     * {@link #timeout()} bounds the wait for the answer to start, and the planner's {@code StreamedAnswer}
     * the whole answer.
     */
    StreamingChatModel streamingChatModel(boolean strictJsonSchema) {
        OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder builder = OpenAiStreamingChatModel.builder()
                .strictJsonSchema(strictJsonSchema)
                .httpClientBuilder(StatusHttpClient.builder())
                .apiKey(apiKey == null ? PLACEHOLDER_KEY : apiKey)
                .modelName(model)
                .timeout(timeout)
                .logRequests(false)
                .logResponses(false);
        if (baseUrl != null) {
            builder.baseUrl(baseUrl);
        }
        return builder.build();
    }

    /** Shows everything but the API key. */
    @Override
    public String toString() {
        return "LlmConfig[apiKey=" + (apiKey == null ? "(none)" : "****")
                + ", baseUrl=" + (baseUrl == null ? "(OpenAI)" : baseUrl)
                + ", model=" + model
                + ", timeout=" + LlmText.seconds(timeout)
                + ", maxResponseBytes=" + BoundedHttp.describeBytes(maxResponseBytes) + "]";
    }

    private static Duration timeout(String seconds) {
        if (seconds == null) {
            return DEFAULT_TIMEOUT;
        }
        try {
            BigDecimal value = new BigDecimal(seconds.strip());
            if (value.signum() > 0) {
                return Duration.ofMillis(value.movePointRight(3).longValueExact());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException(
                "PLANVM_LLM_TIMEOUT_SECONDS must be a positive number of seconds, not '" + seconds + "'");
    }

    private static long bytes(String size) {
        if (size == null) {
            return DEFAULT_MAX_RESPONSE_BYTES;
        }
        Matcher matcher = SIZE.matcher(size.strip());
        if (matcher.matches()) {
            long number = Long.parseLong(matcher.group(1));
            String unit = matcher.group(2) == null ? "" : matcher.group(2).toLowerCase(Locale.ROOT);
            int shift = unit.equals("k") ? 10 : unit.equals("m") ? 20 : unit.equals("g") ? 30 : 0;
            if (number >= 1 && number <= (1L << 40) >> shift) {
                return number << shift;
            }
        }
        throw new IllegalArgumentException("PLANVM_LLM_MAX_RESPONSE_BYTES must be a size such as 16MiB, 512KiB or"
                + " a number of bytes, not '" + size + "'");
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
