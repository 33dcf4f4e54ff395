package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The built-in {@code planvm:planner} tool: the agent's requests for a plan (a first plan, a repair, a
 * re-plan) go through the call chain as calls of this tool, so they are recorded, replayed, retried
 * and counted against the token budget like every other call. It sends a conversation to the chat
 * model and returns the answer as text; the agent reads the plan out of it.
 *
 * <p>Params: {@code messages} ({@code [{"role": "system"|"user"|"assistant", "content": "..."}]}),
 * {@code response_format} ({@code {"type": "json_schema", "json_schema": {"name", "schema"}}} for a
 * strict structured answer, {@code {"type": "json_object"}} for JSON mode, or absent/{@code null} for
 * text), {@code stream} (answer as server-sent events: each piece is reported to the call's
 * {@link dev.planvm.tools.CallEvents} as it arrives) and {@code tools} (the tool catalog the messages
 * describe; not sent, kept so that a replay can ask the very same question).
 */
public final class PlannerTool implements Tool {

    /** The tool's name. */
    public static final String NAME = "planvm:planner";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final LlmClient client;
    private final StreamedAnswer streamed;

    /** A planner over the model {@code config} describes. */
    public PlannerTool(LlmConfig config) {
        this(
                config.chatModel(true),
                config.streamingChatModel(true),
                LlmFailures.of(config),
                config.timeout(),
                config.provider());
    }

    /**
     * A planner over any models.
     *
     * @param timeout how long a streamed answer may take, whole, before the call fails (retriable)
     */
    public PlannerTool(ChatModel model, StreamingChatModel streaming, Duration timeout) {
        this(model, streaming, LlmFailures.unknownServer(), timeout, null);
    }

    private PlannerTool(
            ChatModel model,
            StreamingChatModel streaming,
            LlmFailures failures,
            Duration timeout,
            LlmProvider provider) {
        this.client = new LlmClient(model, failures, provider);
        this.streamed = new StreamedAnswer(streaming, failures, timeout);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "planvm's agent asks the configured LLM for a plan with this (the conversation in 'messages'); "
                + "plans need not call it.";
    }

    @Override
    public JsonNode paramsSchema() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ObjectNode message = properties
                .putObject("messages")
                .put("type", "array")
                .put("minItems", 1)
                .putObject("items");
        message.put("type", "object");
        ObjectNode messageProperties = message.putObject("properties");
        messageProperties
                .putObject("role")
                .putArray("enum")
                .add("system")
                .add("user")
                .add("assistant");
        messageProperties.putObject("content").put("type", "string");
        message.putArray("required").add("role").add("content");
        properties.putObject("response_format").putArray("type").add("object").add("null");
        properties.putObject("stream").put("type", "boolean");
        properties.putObject("tools").put("type", "array");
        schema.putArray("required").add("messages");
        return schema;
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        List<ChatMessage> messages = messages(params.get("messages"));
        LlmClient.Prepared format = client.prepare(format(params.get("response_format")));
        if (params.path("stream").asBoolean(false)) {
            return TextNode.valueOf(streamed.ask(format.messages(messages), format.format(), context.events()));
        }
        return TextNode.valueOf(client.ask(messages, format, null, context.events()));
    }

    private static List<ChatMessage> messages(JsonNode list) {
        List<ChatMessage> messages = new ArrayList<>();
        for (JsonNode message : list) {
            String content = message.path("content").asText();
            switch (message.path("role").asText()) {
                case "system" -> messages.add(SystemMessage.from(content));
                case "assistant" -> messages.add(AiMessage.from(content));
                default -> messages.add(UserMessage.from(content));
            }
        }
        return messages;
    }

    /** The answer's shape params ask for. */
    static AnswerShape format(JsonNode format) {
        if (format == null
                || format.isNull()
                || format.path("type").asText("text").equals("text")) {
            return AnswerShape.TEXT;
        }
        String type = format.path("type").asText();
        if (type.equals("json_object")) {
            return AnswerShape.JSON;
        }
        if (!type.equals("json_schema")
                || !format.path("json_schema").path("schema").isObject()) {
            throw ToolException.permanent("response_format must be {\"type\": \"json_schema\", \"json_schema\": "
                    + "{\"name\", \"schema\"}}, {\"type\": \"json_object\"} or {\"type\": \"text\"}");
        }
        JsonNode jsonSchema = format.get("json_schema");
        return AnswerShape.schema(jsonSchema.path("name").asText("plan"), (ObjectNode) jsonSchema.get("schema"));
    }

    @Override
    public String toString() {
        return "Tool[" + NAME + "]";
    }
}
