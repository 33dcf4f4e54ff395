package dev.planvm.knowledge.spi;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An OpenAI-compatible embeddings endpoint ({@code POST BASE_URL/embeddings}): OpenAI itself, Ollama,
 * vLLM, LM Studio, a text-embeddings-inference server. {@link #toString()} never shows the key.
 *
 * @param baseUrl the server's base URL, e.g. {@code http://localhost:11434/v1}
 * @param model   the model name sent with every request
 * @param apiKey  the key sent as a bearer token, or null when the server needs none
 * @param timeout how long one request may take
 */
public record EmbeddingEndpoint(URI baseUrl, String model, String apiKey, Duration timeout) {

    /** The environment variable naming the endpoint's base URL; without it the in-process model is used. */
    public static final String BASE_URL_VARIABLE = "PLANVM_EMBEDDINGS_BASE_URL";
    /** The environment variable naming the model (default {@value #DEFAULT_MODEL}). */
    public static final String MODEL_VARIABLE = "PLANVM_EMBEDDINGS_MODEL";
    /** The environment variable holding the key, when the server wants one. */
    public static final String API_KEY_VARIABLE = "PLANVM_EMBEDDINGS_API_KEY";
    /** The model used when none is named. */
    public static final String DEFAULT_MODEL = "text-embedding-3-small";
    /** The timeout of one request when none is given. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    public EmbeddingEndpoint {
        Objects.requireNonNull(baseUrl, "baseUrl");
        String scheme = baseUrl.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || baseUrl.getHost() == null) {
            throw new KnowledgeException(
                    "the embeddings base URL must be an http:// or https:// URL with a host, not '" + baseUrl + "'");
        }
        if (model == null || model.isBlank()) {
            throw new KnowledgeException("the embeddings model name must not be blank");
        }
        if (apiKey != null && apiKey.isBlank()) {
            apiKey = null;
        }
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new KnowledgeException("the embeddings timeout must be positive, not " + timeout);
        }
    }

    /**
     * The endpoint the environment configures ({@value #BASE_URL_VARIABLE}, {@value #MODEL_VARIABLE},
     * {@value #API_KEY_VARIABLE}); empty when no base URL is set (then the in-process model is used).
     *
     * @throws KnowledgeException when the base URL is not a usable URL
     */
    public static Optional<EmbeddingEndpoint> fromEnvironment(Map<String, String> environment) {
        String baseUrl = blankToNull(environment.get(BASE_URL_VARIABLE));
        if (baseUrl == null) {
            return Optional.empty();
        }
        String model = Objects.requireNonNullElse(blankToNull(environment.get(MODEL_VARIABLE)), DEFAULT_MODEL);
        return Optional.of(new EmbeddingEndpoint(
                parseUrl(baseUrl, BASE_URL_VARIABLE),
                model,
                blankToNull(environment.get(API_KEY_VARIABLE)),
                DEFAULT_TIMEOUT));
    }

    /** {@code text} as a base URL; {@code what} names where it came from in the message when it is not one. */
    public static URI parseUrl(String text, String what) {
        try {
            return new URI(text.strip());
        } catch (java.net.URISyntaxException e) {
            throw new KnowledgeException(what + " is not a URL: '" + text + "'");
        }
    }

    /** What the model name an index built through an endpoint records starts with. */
    public static final String RECORDED_PREFIX = "openai-compatible/";

    /** The name an index built through this endpoint records: {@code openai-compatible/MODEL}. */
    public String recordedModel() {
        return RECORDED_PREFIX + model;
    }

    /** Shows everything but the API key. */
    @Override
    public String toString() {
        return "EmbeddingEndpoint[baseUrl=" + baseUrl + ", model=" + model + ", apiKey="
                + (apiKey == null ? "(none)" : "****") + ", timeout=" + timeout + "]";
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }
}
