package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.planvm.json.JsonText;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The built-in {@code llm_generate} tool: sends {@code prompt} (and {@code context}) to a chat model
 * and returns the answer as text. When the plan stores the output in two or more variables, it asks
 * for one JSON object with those keys and returns that object. The tokens each request spends are
 * reported to the call's {@link dev.planvm.tools.CallEvents}. Failures become
 * {@link dev.planvm.tools.ToolException}s (retriable for HTTP 429/5xx, timeouts and I/O errors).
 */
public final class LlmGenerateTool implements Tool {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final LlmClient client;

    /** A tool over any chat model; failure messages cannot name the server or the timeout. */
    public LlmGenerateTool(ChatModel model) {
        this(new LlmClient(model, LlmFailures.unknownServer()));
    }

    /** A tool over the model {@code config} describes; failure messages name its URL and timeout. */
    public LlmGenerateTool(LlmConfig config) {
        this(new LlmClient(config.chatModel(), LlmFailures.of(config)));
    }

    private LlmGenerateTool(LlmClient client) {
        this.client = client;
    }

    @Override
    public String name() {
        return "llm_generate";
    }

    @Override
    public String description() {
        return "Asks the configured LLM: sends 'prompt' (and 'context', when given) and returns the answer "
                + "as text, or as a JSON object when the output goes to two or more variables.";
    }

    @Override
    public JsonNode paramsSchema() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("prompt").put("type", "string").put("description", "what to ask");
        properties.putObject("context").put("description", "material the answer draws on (any JSON, or null)");
        schema.putArray("required").add("prompt");
        return schema;
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        List<String> keys = context.expectedKeys();
        boolean wantsObject = keys.size() >= 2;
        List<ChatMessage> messages = new ArrayList<>();
        if (wantsObject) {
            messages.add(SystemMessage.from("Respond with one JSON object with exactly these keys: "
                    + String.join(", ", keys) + ". Write nothing outside the object."));
        }
        messages.add(UserMessage.from(LlmText.withContext(params.path("prompt").asText(), params.get("context"))));
        String answer = client.ask(messages, wantsObject, context.events());
        if (wantsObject) {
            Optional<ObjectNode> object = JsonText.findObject(answer);
            if (object.isPresent()) {
                return object.get();
            }
        }
        return TextNode.valueOf(answer);
    }

    @Override
    public String toString() {
        return "Tool[llm_generate]";
    }
}
