package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One chat model and how its failures read: sends messages, returns the answer's text, and turns
 * every failure into a {@link dev.planvm.tools.ToolException}. It knows its provider ({@code null}: any chat
 * model, sent as it is), so that an answer's shape is asked for the provider's way ({@link #prepare}) and
 * what a provider cannot do is refused naming the provider and the feature. Immutable, so thread-safe when
 * the model is.
 */
record LlmClient(ChatModel model, LlmFailures failures, LlmProvider provider) {

    /** Asked of providers with no schemaless JSON mode (Anthropic), before the first user message. */
    static final String JSON_INSTRUCTION =
            "Respond with JSON only: one JSON value, with no text, and no code fence, around it.";

    LlmClient {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(failures, "failures");
    }

    /** A client over any chat model. */
    LlmClient(ChatModel model, LlmFailures failures) {
        this(model, failures, null);
    }

    /**
     * A request for {@code shape}, the provider's way.
     *
     * @param format      the response format to send, or null
     * @param instruction a system message to add (a shape the provider has no format for), or null
     */
    record Prepared(AnswerShape shape, ResponseFormat format, String instruction, LlmProvider provider) {

        /** An answer to the sent form as an answer to the shape's schema ({@link SchemaForms#restore}). */
        JsonNode restore(JsonNode answer) {
            return shape.kind() == AnswerShape.Kind.SCHEMA
                    ? SchemaForms.restore(provider, shape.schema(), answer)
                    : answer;
        }

        /** {@code messages} with the instruction, when there is one, after the leading system messages. */
        List<ChatMessage> messages(List<ChatMessage> messages) {
            if (instruction == null) {
                return messages;
            }
            List<ChatMessage> all = new ArrayList<>(messages);
            int at = 0;
            while (at < all.size() && all.get(at) instanceof SystemMessage) {
                at++;
            }
            all.add(at, SystemMessage.from(instruction));
            return all;
        }
    }

    /**
     * {@code shape} as this client's provider takes it: JSON mode ({@code response_format: json_object},
     * Gemini's {@code responseMimeType}, Ollama's {@code "format": "json"}), or, for Anthropic, which has none, an
     * instruction; a schema in the provider's form ({@link SchemaForms#form}).
     *
     * @throws ToolException (permanent) when the provider cannot take the schema
     */
    Prepared prepare(AnswerShape shape) {
        return switch (shape.kind()) {
            case TEXT -> new Prepared(shape, null, null, provider);
            case JSON ->
                provider == LlmProvider.ANTHROPIC
                        ? new Prepared(shape, null, JSON_INSTRUCTION, provider)
                        : new Prepared(shape, ResponseFormat.JSON, null, provider);
            case SCHEMA ->
                new Prepared(
                        shape,
                        ResponseFormat.builder()
                                .type(ResponseFormatType.JSON)
                                .jsonSchema(JsonSchema.builder()
                                        .name(shape.name())
                                        .rootElement(JsonRawSchema.from(SchemaForms.form(provider, shape.schema())
                                                .toString()))
                                        .build())
                                .build(),
                        null,
                        provider);
        };
    }

    /** The answer to {@code messages} in {@code shape}; tokens reported to {@code events}. */
    String ask(List<ChatMessage> messages, AnswerShape shape, CallEvents events) {
        return ask(messages, prepare(shape), null, events);
    }

    /**
     * The model's answer to {@code messages} as {@code prepared} asks for it, as text ("" when it has none), with
     * the sampling settings of an {@code llm_generate} call (temperature, the most tokens to answer with, the
     * model) when {@code options} is not null; the tokens the request spent are reported to {@code events}.
     */
    String ask(List<ChatMessage> messages, Prepared prepared, GenerateRequest options, CallEvents events) {
        ChatRequest.Builder request = ChatRequest.builder().messages(prepared.messages(messages));
        if (prepared.format() != null) {
            request.responseFormat(prepared.format());
        }
        if (options != null && options.temperature() != null) {
            checkTemperature(options.temperature());
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

    /** Anthropic samples at temperatures from 0 to 1 only; the others take what planvm allows (0 to 2). */
    private void checkTemperature(double temperature) {
        if (provider == LlmProvider.ANTHROPIC && temperature > 1) {
            throw ToolException.permanent(
                    "anthropic takes a temperature from 0 to 1, not " + LlmText.number(temperature));
        }
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
