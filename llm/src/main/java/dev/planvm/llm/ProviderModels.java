package dev.planvm.llm;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiChatModel;
import dev.langchain4j.model.googleai.GoogleAiGeminiStreamingChatModel;
import dev.langchain4j.model.mistralai.MistralAiChatModel;
import dev.langchain4j.model.mistralai.MistralAiStreamingChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import dev.langchain4j.model.ollama.OllamaStreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.util.Map;

/**
 * Builds the langchain4j chat models of a {@link LlmConfig}, one pair (plain and streaming) per provider, all
 * alike: planvm's HTTP client ({@link StatusHttpClient}: HTTP/1.1, bounded answers, the provider's retry
 * hints), no retries of their own ({@code maxRetries(0)}: planvm's retry link retries), nothing logged. The
 * address a user gives is the one its ecosystem writes ({@code https://api.anthropic.com}, an Azure endpoint,
 * Ollama's {@code http://localhost:11434}); the API's path is added here.
 */
final class ProviderModels {

    /** The most tokens an Anthropic answer may have when neither the call nor the configuration names a number. */
    static final int ANTHROPIC_MAX_TOKENS = 4096;

    /** Sent when an OpenAI-compatible base URL is given without a key: most local servers ignore it, some want one. */
    static final String PLACEHOLDER_KEY = "not-needed";

    private ProviderModels() {}

    static ChatModel chatModel(LlmConfig config, boolean strict) {
        StatusHttpClient.Builder http = http(config);
        return switch (config.provider()) {
            case OPENAI, AZURE_OPENAI -> {
                OpenAiChatModel.OpenAiChatModelBuilder builder = OpenAiChatModel.builder()
                        .strictJsonSchema(strict)
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .modelName(config.model())
                        .maxTokens(config.maxTokens())
                        .timeout(config.timeout())
                        .maxRetries(0)
                        .logRequests(false)
                        .logResponses(false);
                openAiAuth(config, builder::apiKey, builder::customHeaders);
                yield builder.build();
            }
            case ANTHROPIC ->
                AnthropicChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxTokens(anthropicMaxTokens(config))
                        .timeout(config.timeout())
                        .maxRetries(0)
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case GEMINI ->
                GoogleAiGeminiChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxOutputTokens(config.maxTokens())
                        .timeout(config.timeout())
                        .maxRetries(0)
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case OLLAMA ->
                OllamaChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .customHeaders(bearer(config))
                        .modelName(config.model())
                        .numPredict(config.maxTokens())
                        .timeout(config.timeout())
                        .maxRetries(0)
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case MISTRAL ->
                MistralAiChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxTokens(config.maxTokens())
                        .strictJsonSchema(strict)
                        .timeout(config.timeout())
                        .maxRetries(0)
                        .logRequests(false)
                        .logResponses(false)
                        .build();
        };
    }

    static StreamingChatModel streamingChatModel(LlmConfig config, boolean strict) {
        StatusHttpClient.Builder http = http(config);
        return switch (config.provider()) {
            case OPENAI, AZURE_OPENAI -> {
                OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder builder = OpenAiStreamingChatModel.builder()
                        .strictJsonSchema(strict)
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .modelName(config.model())
                        .maxTokens(config.maxTokens())
                        .timeout(config.timeout())
                        .logRequests(false)
                        .logResponses(false);
                openAiAuth(config, builder::apiKey, builder::customHeaders);
                yield builder.build();
            }
            case ANTHROPIC ->
                AnthropicStreamingChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxTokens(anthropicMaxTokens(config))
                        .timeout(config.timeout())
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case GEMINI ->
                GoogleAiGeminiStreamingChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxOutputTokens(config.maxTokens())
                        .timeout(config.timeout())
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case OLLAMA ->
                OllamaStreamingChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .customHeaders(bearer(config))
                        .modelName(config.model())
                        .numPredict(config.maxTokens())
                        .timeout(config.timeout())
                        .logRequests(false)
                        .logResponses(false)
                        .build();
            case MISTRAL ->
                MistralAiStreamingChatModel.builder()
                        .httpClientBuilder(http)
                        .baseUrl(apiUrl(config))
                        .apiKey(config.apiKey())
                        .modelName(config.model())
                        .maxTokens(config.maxTokens())
                        .strictJsonSchema(strict)
                        .timeout(config.timeout())
                        .logRequests(false)
                        .logResponses(false)
                        .build();
        };
    }

    /**
     * The URL the langchain4j module wants: OpenAI-compatible servers and Mistral as given (they end in
     * {@code /v1}); Anthropic's with {@code /v1}, Gemini's with {@code /v1beta}, Azure's endpoint with
     * {@code /openai/v1} (its v1 API), unless the URL already ends so; Ollama's as given.
     */
    static String apiUrl(LlmConfig config) {
        String url = stripSlash(config.serverUrl());
        return switch (config.provider()) {
            case ANTHROPIC -> url.endsWith("/v1") ? url : url + "/v1";
            case GEMINI -> url.matches(".*/v1(beta)?$") ? url : url + "/v1beta";
            case AZURE_OPENAI -> url.endsWith("/openai/v1") ? url : url + "/openai/v1";
            default -> url;
        };
    }

    private static StatusHttpClient.Builder http(LlmConfig config) {
        return StatusHttpClient.builder()
                .maxResponseBytes(config.maxResponseBytes())
                .retryHints(RetryHints.of(config.provider()));
    }

    /** OpenAI: {@code Authorization: Bearer KEY} (a placeholder for keyless servers); Azure: {@code api-key: KEY}. */
    private static void openAiAuth(
            LlmConfig config,
            java.util.function.Consumer<String> apiKey,
            java.util.function.Consumer<Map<String, String>> headers) {
        if (config.provider() == LlmProvider.AZURE_OPENAI) {
            headers.accept(Map.of("api-key", config.apiKey()));
        } else {
            apiKey.accept(config.apiKey() == null ? PLACEHOLDER_KEY : config.apiKey());
        }
    }

    /** Ollama's cloud wants {@code Authorization: Bearer KEY}; a local server nothing. */
    private static Map<String, String> bearer(LlmConfig config) {
        return config.apiKey() == null ? Map.of() : Map.of("Authorization", "Bearer " + config.apiKey());
    }

    private static int anthropicMaxTokens(LlmConfig config) {
        return config.maxTokens() == null ? ANTHROPIC_MAX_TOKENS : config.maxTokens();
    }

    private static String stripSlash(String url) {
        String stripped = url.strip();
        while (stripped.endsWith("/")) {
            stripped = stripped.substring(0, stripped.length() - 1);
        }
        return stripped;
    }
}
