package dev.planvm.llm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The LLM services planvm speaks, each through langchain4j, each configured by its ecosystem's usual
 * environment variables. The order is the order in which the environment picks the default provider when
 * {@code PLANVM_LLM_PROVIDER} does not name one: the first whose variables are set.
 *
 * <p>Anthropic and Gemini go through langchain4j's own modules of the core's version; Ollama and Mistral
 * through their newest served modules (1.18), which run beside the 1.19 core; Azure OpenAI through its
 * OpenAI-compatible v1 API and {@code langchain4j-open-ai} (its own langchain4j module is not served).
 */
public enum LlmProvider {
    /** OpenAI, or any OpenAI-compatible server (vLLM, LM Studio, Ollama's {@code /v1}) through a base URL. */
    OPENAI(
            "openai",
            "OpenAI",
            List.of("OPENAI_API_KEY"),
            "OPENAI_BASE_URL",
            "https://api.openai.com/v1",
            "gpt-4o-mini"),
    /** Anthropic's Messages API. */
    ANTHROPIC(
            "anthropic",
            "Anthropic",
            List.of("ANTHROPIC_API_KEY"),
            "ANTHROPIC_BASE_URL",
            "https://api.anthropic.com",
            "claude-haiku-4-5"),
    /** Google's Gemini API ({@code generateContent}); the key may also come from {@code GOOGLE_API_KEY}. */
    GEMINI(
            "gemini",
            "Google Gemini",
            List.of("GEMINI_API_KEY", "GOOGLE_API_KEY"),
            "GOOGLE_GEMINI_BASE_URL",
            "https://generativelanguage.googleapis.com",
            "gemini-2.5-flash"),
    /** Ollama's native API ({@code /api/chat}); a key only for a server that wants one (Ollama's cloud). */
    OLLAMA("ollama", "Ollama", List.of("OLLAMA_API_KEY"), "OLLAMA_BASE_URL", "http://localhost:11434", "llama3.2"),
    /** Azure OpenAI's v1 API ({@code ENDPOINT/openai/v1}, {@code api-key} header); the model is the deployment. */
    AZURE_OPENAI("azure-openai", "Azure OpenAI", List.of("AZURE_OPENAI_API_KEY"), "AZURE_OPENAI_ENDPOINT", null, null),
    /** Mistral AI's chat completions. */
    MISTRAL(
            "mistral",
            "Mistral AI",
            List.of("MISTRAL_API_KEY"),
            "MISTRAL_BASE_URL",
            "https://api.mistral.ai/v1",
            "mistral-small-latest");

    /** The environment variable that names the default provider. */
    public static final String PROVIDER_VARIABLE = "PLANVM_LLM_PROVIDER";

    /** Azure OpenAI's variable for the deployment (the model name requests carry). */
    public static final String AZURE_DEPLOYMENT_VARIABLE = "AZURE_OPENAI_DEPLOYMENT";

    private final String id;
    private final String title;
    private final List<String> keyVariables;
    private final String urlVariable;
    private final String defaultUrl;
    private final String defaultModel;

    LlmProvider(
            String id,
            String title,
            List<String> keyVariables,
            String urlVariable,
            String defaultUrl,
            String defaultModel) {
        this.id = id;
        this.title = title;
        this.keyVariables = keyVariables;
        this.urlVariable = urlVariable;
        this.defaultUrl = defaultUrl;
        this.defaultModel = defaultModel;
    }

    /** How plans, {@code PLANVM_LLM_PROVIDER} and {@code planvm.json} name it: {@code openai}, {@code azure-openai}. */
    public String id() {
        return id;
    }

    /** Its name for people: {@code Google Gemini}. */
    public String title() {
        return title;
    }

    /** The environment variables its key is read from, in order (the first set wins). */
    public List<String> keyVariables() {
        return keyVariables;
    }

    /** The environment variable of its address ({@code OPENAI_BASE_URL}, {@code AZURE_OPENAI_ENDPOINT}). */
    public String urlVariable() {
        return urlVariable;
    }

    /** Its public address, or empty when there is none (Azure: every resource has its own endpoint). */
    public Optional<String> defaultUrl() {
        return Optional.ofNullable(defaultUrl);
    }

    /** The model used when none is named, or empty when one must be (Azure: the deployment). */
    public Optional<String> defaultModel() {
        return Optional.ofNullable(defaultModel);
    }

    /**
     * {@code schema} as this provider's structured output takes it (a copy; the plan's schema is unchanged): OpenAI
     * and Azure OpenAI's strict form closes every object ({@code additionalProperties: false}) and requires every
     * property, optional ones made nullable; Anthropic's and Gemini's keep the keywords they take and note the others
     * in the description. What a request to this provider carries, and what a conformance test compares.
     *
     * @throws dev.planvm.tools.ToolException (permanent) naming the provider, when it cannot take the schema at all
     */
    public ObjectNode structuredOutputSchema(ObjectNode schema) {
        return SchemaForms.form(this, schema);
    }

    /** Whether requests need a key: every provider but Ollama, and OpenAI-compatible servers at a base URL. */
    boolean needsKey(String baseUrl) {
        return this != OLLAMA && !(this == OPENAI && baseUrl != null);
    }

    /** Whether it serves models under any name a server was given (self-hosted servers: names may hold a colon). */
    boolean hostsAnyModelName(String baseUrl) {
        return this == OLLAMA || (this == OPENAI && baseUrl != null);
    }

    /** The provider {@code id} names (any case), if any. */
    public static Optional<LlmProvider> byId(String id) {
        if (id == null) {
            return Optional.empty();
        }
        String wanted = id.strip().toLowerCase(Locale.ROOT);
        for (LlmProvider provider : values()) {
            if (provider.id.equals(wanted)) {
                return Optional.of(provider);
            }
        }
        return Optional.empty();
    }

    /** {@code openai, anthropic, gemini, ollama, azure-openai, mistral}. */
    public static String ids() {
        return String.join(
                ", ", java.util.Arrays.stream(values()).map(LlmProvider::id).toList());
    }

    @Override
    public String toString() {
        return id;
    }
}
