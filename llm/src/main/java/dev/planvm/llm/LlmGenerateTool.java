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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
    /** The configuration, when the tool was built from one (its timeout can then follow the call's); else null. */
    private final LlmConfig config;
    /** Clients for attempt timeouts other than the configured one, built on first need. */
    private final Map<Duration, LlmClient> byTimeout = new ConcurrentHashMap<>();

    /** A tool over any chat model; failure messages cannot name the server or the timeout. */
    public LlmGenerateTool(ChatModel model) {
        this.client = new LlmClient(model, LlmFailures.unknownServer());
        this.config = null;
    }

    /** A tool over the model {@code config} describes; failure messages name its URL and timeout. */
    public LlmGenerateTool(LlmConfig config) {
        this.client = new LlmClient(config.chatModel(), LlmFailures.of(config));
        this.config = config;
    }

    /**
     * The LLM's timeout ({@code PLANVM_LLM_TIMEOUT_SECONDS}, default 60 s), when neither
     * {@code --tool-timeout llm_generate=S} nor the run's {@code --call-timeout} sets one.
     */
    @Override
    public Optional<Duration> defaultCallTimeout() {
        return config == null ? Optional.empty() : Optional.of(config.timeout());
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
        String answer = client(context).ask(messages, wantsObject, context.events());
        if (wantsObject) {
            Optional<ObjectNode> object = JsonText.findObject(answer);
            if (object.isPresent()) {
                return object.get();
            }
        }
        return TextNode.valueOf(answer);
    }

    /** The client whose HTTP timeout is the attempt's (one precedence for every tool: {@link Tool#defaultCallTimeout()}). */
    private LlmClient client(CallContext context) {
        Duration timeout = context.timeout();
        if (config == null || timeout == null || timeout.equals(config.timeout())) {
            return client;
        }
        return byTimeout.computeIfAbsent(timeout, t -> {
            LlmConfig timed =
                    new LlmConfig(config.apiKey(), config.baseUrl(), config.model(), t, config.maxResponseBytes());
            return new LlmClient(timed.chatModel(), LlmFailures.of(timed));
        });
    }

    @Override
    public String toString() {
        return "Tool[llm_generate]";
    }
}
