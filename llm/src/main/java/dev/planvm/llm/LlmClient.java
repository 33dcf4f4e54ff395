package dev.planvm.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
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
     * The model's answer to {@code messages}, as text ("" when it has none).
     *
     * @param json whether to ask for a JSON object ({@code response_format: json_object})
     */
    String ask(List<ChatMessage> messages, boolean json) {
        ChatRequest.Builder request = ChatRequest.builder().messages(messages);
        if (json) {
            request.responseFormat(ResponseFormat.JSON);
        }
        long start = System.nanoTime();
        ChatResponse response;
        try {
            response = model.chat(request.build());
        } catch (RuntimeException e) {
            throw failures.map(e, Duration.ofNanos(System.nanoTime() - start));
        }
        String text = response.aiMessage() == null ? null : response.aiMessage().text();
        return text == null ? "" : text;
    }
}
