package dev.planvm.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One chat model and how its failures read: sends messages, returns the answer's text, and turns
 * every failure into a {@link dev.planvm.tools.ToolException}. Immutable, so thread-safe when the
 * model is.
 */
record LlmClient(ChatModel model, LlmFailures failures) {

    LlmClient {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(failures, "failures");
    }

    /**
     * The model's answer to {@code messages}, as text ("" when it has none); the tokens the request
     * spent are reported to {@code events}.
     *
     * @param json whether to ask for a JSON object ({@code response_format: json_object})
     */
    String ask(List<ChatMessage> messages, boolean json, CallEvents events) {
        return ask(messages, json ? ResponseFormat.JSON : null, events);
    }

    /** The model's answer to {@code messages} in {@code format} (null: text); tokens reported to {@code events}. */
    String ask(List<ChatMessage> messages, ResponseFormat format, CallEvents events) {
        return ask(messages, format, null, events);
    }

    /**
     * As {@link #ask(List, ResponseFormat, CallEvents)}, with the sampling settings of an {@code llm_generate}
     * call (temperature, the most tokens to answer with, the model), when {@code options} is not null.
     */
    String ask(List<ChatMessage> messages, ResponseFormat format, GenerateRequest options, CallEvents events) {
        ChatRequest.Builder request = ChatRequest.builder().messages(messages);
        if (format != null) {
            request.responseFormat(format);
        }
        if (options != null && options.temperature() != null) {
            request.temperature(options.temperature());
        }
        if (options != null && options.maxTokens() != null) {
            request.maxOutputTokens(options.maxTokens());
        }
        if (options != null && options.model() != null) {
            request.modelName(options.model());
        }
        if (options != null && !options.stop().isEmpty()) {
            request.stopSequences(options.stop());
        }
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = model.chat(request.build());
        } catch (RuntimeException e) {
            throw failures.map(e, Duration.ofNanos(System.nanoTime() - start));
        }
        report(response.tokenUsage(), events);
        String text = response.aiMessage() == null ? null : response.aiMessage().text();
        return text == null ? "" : text;
    }

    /** Reports what a server counted (a server that counts nothing reports nothing). */
    static void report(TokenUsage usage, CallEvents events) {
        TokenCount tokens = tokens(usage);
        if (!tokens.isZero()) {
            events.tokens(tokens);
        }
    }

    static TokenCount tokens(TokenUsage usage) {
        if (usage == null) {
            return TokenCount.ZERO;
        }
        long prompt = usage.inputTokenCount() == null ? 0 : Math.max(0, usage.inputTokenCount());
        long completion = usage.outputTokenCount() == null ? 0 : Math.max(0, usage.outputTokenCount());
        return new TokenCount(prompt, completion);
    }
}
