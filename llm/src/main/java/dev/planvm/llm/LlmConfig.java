package dev.planvm.llm;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
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
 * How to reach one chat model behind {@code llm_generate}, LLM conditions and the planner: a provider
 * ({@link LlmProvider}), its key and address, and the model.
 *
 * @param provider the service ({@link LlmProvider#OPENAI} for any OpenAI-compatible server)
 * @param apiKey  the API key, or null when the server needs none (Ollama; an OpenAI-compatible base URL)
 * @param baseUrl the server's address as its ecosystem writes it ({@code http://localhost:11434/v1} for
 *                OpenAI-compatible servers, {@code https://api.anthropic.com}, an Azure endpoint), or null
 *                for the provider's public one
 * @param model   the model name sent with every request (Azure: the deployment)
 * @param timeout how long one LLM call may take (connect and answer, the whole body included)
 * @param maxResponseBytes the largest answer read, in bytes; a larger one fails without being read
 *                         to the end
 * @param maxTokens the most tokens an answer may have when a call names none, or null for the provider's
 *                  default (Anthropic requires one: {@value ProviderModels#ANTHROPIC_MAX_TOKENS})
 */
public record LlmConfig(
        LlmProvider provider,
        String apiKey,
        String baseUrl,
        String model,
        Duration timeout,
        long maxResponseBytes,
        Integer maxTokens) {

    /** What to tell the user when a plan needs an LLM and none is configured. */
    public static final String NOT_CONFIGURED = "no LLM is configured: set OPENAI_API_KEY (OpenAI) or "
            + "OPENAI_BASE_URL (any OpenAI-compatible server, e.g. vLLM, LM Studio), ANTHROPIC_API_KEY, "
            + "GEMINI_API_KEY, OLLAMA_BASE_URL, AZURE_OPENAI_ENDPOINT (with AZURE_OPENAI_API_KEY and "
            + "AZURE_OPENAI_DEPLOYMENT) or MISTRAL_API_KEY (PLANVM_LLM_PROVIDER picks one when several are set), "
            + "and optionally PLANVM_MODEL; or an \"llm\" section in planvm.json";

    /** The model used when {@code PLANVM_MODEL} is unset (OpenAI). */
    public static final String DEFAULT_MODEL = "gpt-4o-mini";

    /** The timeout used when {@code PLANVM_LLM_TIMEOUT_SECONDS} is unset. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    /** The answer cap used when {@code PLANVM_LLM_MAX_RESPONSE_BYTES} is unset: 16 MiB. */
    public static final long DEFAULT_MAX_RESPONSE_BYTES = StatusHttpClient.DEFAULT_MAX_RESPONSE_BYTES;

    private static final Pattern SIZE =
            Pattern.compile("(\\d{1,15})\\s*(?:([kmg])(?:i?b)?|b)?", Pattern.CASE_INSENSITIVE);

    public LlmConfig {
        Objects.requireNonNull(provider, "provider");
        apiKey = blankToNull(apiKey);
        baseUrl = blankToNull(baseUrl);
        if (provider == LlmProvider.OPENAI && apiKey == null && baseUrl == null) {
            throw new IllegalArgumentException(NOT_CONFIGURED);
        }
        if (apiKey == null && provider.needsKey(baseUrl)) {
            throw new IllegalArgumentException(
                    provider.id() + " needs an API key: set " + String.join(" or ", provider.keyVariables()));
        }
        if (baseUrl == null && provider.defaultUrl().isEmpty()) {
            throw new IllegalArgumentException(provider.id() + " needs its address: set " + provider.urlVariable());
        }
        if (blankToNull(model) == null) {
            throw new IllegalArgumentException(
                    provider == LlmProvider.AZURE_OPENAI
                            ? "azure-openai needs the deployment: set " + LlmProvider.AZURE_DEPLOYMENT_VARIABLE
                            : "the LLM model name must not be blank");
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the LLM timeout must be positive, not " + timeout);
        }
        if (maxResponseBytes < 1) {
            throw new IllegalArgumentException("the LLM answer cap must be positive, not " + maxResponseBytes);
        }
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1, not " + maxTokens);
        }
    }

    /** An OpenAI-compatible server with the default answer cap ({@link #DEFAULT_MAX_RESPONSE_BYTES}). */
    public LlmConfig(String apiKey, String baseUrl, String model, Duration timeout) {
        this(apiKey, baseUrl, model, timeout, DEFAULT_MAX_RESPONSE_BYTES);
    }

    /** An OpenAI-compatible server. */
    public LlmConfig(String apiKey, String baseUrl, String model, Duration timeout, long maxResponseBytes) {
        this(LlmProvider.OPENAI, apiKey, baseUrl, model, timeout, maxResponseBytes, null);
    }

    /**
     * The configuration of the default model the environment describes: the provider {@code PLANVM_LLM_PROVIDER}
     * names, else the first {@link LlmProvider} whose variables are set ({@code OPENAI_API_KEY} or
     * {@code OPENAI_BASE_URL}, {@code ANTHROPIC_API_KEY}, {@code GEMINI_API_KEY}, {@code OLLAMA_BASE_URL},
     * {@code AZURE_OPENAI_ENDPOINT}, {@code MISTRAL_API_KEY}); {@code PLANVM_MODEL} (a model name, or
     * {@code provider:model}), {@code PLANVM_LLM_TIMEOUT_SECONDS}, {@code PLANVM_LLM_MAX_RESPONSE_BYTES}: bytes, or
     * a number with KiB, MiB or GiB. Empty when no provider is configured. Blank values count as unset.
     *
     * @throws IllegalArgumentException when a setting is invalid (a timeout that is not a positive number, a
     *                                  size that is not one, an unknown provider, a provider missing a variable)
     */
    public static Optional<LlmConfig> fromEnvironment(Map<String, String> env) {
        return LlmEnvironment.read(env).defaultConfig();
    }

    /** This configuration for another model of the same provider. */
    public LlmConfig withModel(String otherModel) {
        return new LlmConfig(provider, apiKey, baseUrl, otherModel, timeout, maxResponseBytes, maxTokens);
    }

    /** This configuration with another timeout. */
    LlmConfig withTimeout(Duration otherTimeout) {
        return new LlmConfig(provider, apiKey, baseUrl, model, otherTimeout, maxResponseBytes, maxTokens);
    }

    /** The address requests go to, as the user wrote it, or the provider's public one. */
    public String serverUrl() {
        return baseUrl == null ? provider.defaultUrl().orElseThrow() : baseUrl;
    }

    /**
     * A chat model for this configuration. It never retries by itself ({@code maxRetries(0)}):
     * planvm's retry link does, and two retry loops would multiply. Nothing is logged. It speaks
     * HTTP/1.1: the JDK client's default, an HTTP/2 upgrade on {@code http://} URLs, makes
     * uvicorn-based servers (vLLM) and LM Studio drop the request body. Its HTTP client keeps an
     * error answer's {@code Retry-After} (and the provider's own retry hints), so the retry link waits as
     * long as the server asks.
     */
    public ChatModel chatModel() {
        return chatModel(false);
    }

    /**
     * As {@link #chatModel()}; with {@code strictJsonSchema}, a request for a JSON Schema answer asks
     * the server to hold the answer to it exactly ({@code "strict": true}: OpenAI's structured outputs, Azure's,
     * Mistral's).
     */
    ChatModel chatModel(boolean strictJsonSchema) {
        return ProviderModels.chatModel(this, strictJsonSchema);
    }

    /**
     * A chat model that streams its answers, configured like {@link #chatModel(boolean)};
     * {@link #timeout()} bounds the wait for the answer to start, and the planner's {@code StreamedAnswer}
     * the whole answer.
     */
    StreamingChatModel streamingChatModel(boolean strictJsonSchema) {
        return ProviderModels.streamingChatModel(this, strictJsonSchema);
    }

    /** Shows everything but the API key. */
    @Override
    public String toString() {
        return "LlmConfig[provider=" + provider.id()
                + ", apiKey=" + (apiKey == null ? "(none)" : "****")
                + ", baseUrl=" + (baseUrl == null ? "(" + provider.title() + ")" : baseUrl)
                + ", model=" + model
                + ", timeout=" + LlmText.seconds(timeout)
                + ", maxResponseBytes=" + BoundedHttp.describeBytes(maxResponseBytes) + "]";
    }

    static Duration timeout(String seconds) {
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

    static long bytes(String size) {
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

    static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
