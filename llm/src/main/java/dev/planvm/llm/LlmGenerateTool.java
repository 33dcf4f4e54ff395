package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.planvm.json.JsonText;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
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
 *
 * <p>The {@code model} param may name another provider ({@code anthropic:claude-haiku-4-5}) or a named model of
 * {@code planvm.json}; see {@link LlmModels#route}. Each provider is asked its own way ({@link LlmClient#prepare}).
 */
public final class LlmGenerateTool implements Tool {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final LlmClient client;
    /** The configuration, when the tool was built from one (its timeout can then follow the call's); else null. */
    private final LlmConfig config;
    /** The other models a call may name, or null (a bare model name goes to the configured server). */
    private final LlmModels models;
    /** Clients for other models, attempt timeouts other than the configured one, and strict ones, built on first need. */
    private final Map<ClientKey, LlmClient> clients = new ConcurrentHashMap<>();

    /** A tool over any chat model; failure messages cannot name the server or the timeout. */
    public LlmGenerateTool(ChatModel model) {
        this.client = new LlmClient(model, LlmFailures.unknownServer());
        this.config = null;
        this.models = null;
    }

    /** A tool over the model {@code config} describes; failure messages name its URL and timeout. */
    public LlmGenerateTool(LlmConfig config) {
        this(config, null);
    }

    /** A tool whose default model is {@code config}, and whose calls may name the others of {@code models}. */
    LlmGenerateTool(LlmConfig config, LlmModels models) {
        this.client = new LlmClient(config.chatModel(), LlmFailures.of(config), config.provider());
        this.config = config;
        this.models = models;
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
        return "Asks the configured LLM: sends 'prompt' (and 'context', when given; 'system' first), or a whole"
                + " conversation as 'messages', and returns "
                + "the answer as text; as JSON with response_format \"json\" (an object with the output variables' "
                + "names as keys when the output goes to two or more); as JSON that fits response_format when it is "
                + "a JSON Schema. temperature, max_tokens and model tune the request.";
    }

    @Override
    public JsonNode paramsSchema() {
        ObjectNode schema = JSON.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties.putObject("prompt").put("type", "string").put("description", "what to ask");
        properties.putObject("context").put("description", "material the answer draws on (any JSON, or null)");
        properties.putObject("system").put("type", "string").put("description", "a system message, sent first");
        ObjectNode format = properties.putObject("response_format");
        format.put(
                "description",
                "\"text\" (the default), \"json\" (the answer read as JSON) or a JSON Schema the answer must fit "
                        + "(strict structured output); any other text asks for text, as StackVM does");
        format.putArray("type").add("string").add("object");
        properties
                .putObject("temperature")
                .put("type", "number")
                .put("minimum", 0)
                .put("maximum", 2);
        ObjectNode maxTokens = properties.putObject("max_tokens");
        maxTokens.putArray("type").add("integer").add("null"); // null: no limit
        maxTokens.put("minimum", 1);
        properties
                .putObject("model")
                .put("type", "string")
                .put(
                        "description",
                        "a model of the configured provider, provider:model (anthropic:claude-haiku-4-5, "
                                + "ollama:llama3.2), or a named model of planvm.json");
        ObjectNode stop = properties.putObject("stop");
        stop.putArray("type").add("string").add("array");
        stop.put("description", "texts that end the answer");
        ObjectNode conversation = properties.putObject("messages");
        conversation.put("type", "array");
        conversation.put(
                "description",
                "a whole conversation, sent as chat messages in order (a last assistant message starts the answer);"
                        + " 'prompt', when also given, follows as a user message");
        ObjectNode turn = conversation.putObject("items");
        turn.put("type", "object");
        turn.putObject("properties")
                .putObject("role")
                .putArray("enum")
                .add("system")
                .add("user")
                .add("assistant");
        ((ObjectNode) turn.get("properties")).putObject("content").put("type", "string");
        turn.putArray("required").add("role").add("content");
        ArrayNode oneOf = schema.putArray("anyOf");
        oneOf.addObject().putArray("required").add("prompt");
        oneOf.addObject().putArray("required").add("messages");
        return schema;
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        List<String> keys = context.expectedKeys();
        GenerateRequest request = GenerateRequest.of(params, keys);
        List<ChatMessage> messages = new ArrayList<>();
        if (request.system() != null) {
            messages.add(SystemMessage.from(request.system()));
        }
        if (request.wantsKeys(keys)) {
            messages.add(SystemMessage.from("Respond with one JSON object with exactly these keys: "
                    + String.join(", ", keys) + ". Write nothing outside the object."));
        }
        for (GenerateRequest.Turn turn : request.messages()) {
            messages.add(
                    switch (turn.role()) {
                        case "system" -> SystemMessage.from(turn.content());
                        case "assistant" -> AiMessage.from(turn.content());
                        default -> UserMessage.from(turn.content());
                    });
        }
        if (request.prompt() != null) {
            messages.add(UserMessage.from(LlmText.withContext(request.prompt(), request.context())));
        }
        Route route = route(request);
        GenerateRequest options = request.withModel(route.model());
        return switch (request.format()) {
            case TEXT -> {
                LlmClient text = client(context, route.config(), false);
                yield TextNode.valueOf(text.ask(messages, text.prepare(AnswerShape.TEXT), options, context.events()));
            }
            case JSON -> {
                LlmClient json = client(context, route.config(), false);
                yield json(
                        json.ask(messages, json.prepare(AnswerShape.JSON), options, context.events()), request, keys);
            }
            case SCHEMA -> fitting(messages, options, route.config(), context);
        };
    }

    /** The configuration and model a call's {@code model} param leads to ({@link LlmModels#route}). */
    private Route route(GenerateRequest request) {
        if (request.model() == null || config == null) {
            return new Route(config, request.model());
        }
        if (models == null) {
            return new Route(config, request.model());
        }
        try {
            LlmModels.Route route = models.route(request.model(), config);
            return new Route(route.config(), route.model());
        } catch (ToolException e) {
            throw ToolException.permanent("model '" + request.model() + "': " + e.getMessage());
        }
    }

    /** The JSON an answer holds; for two or more variables, the object (or, as before, the text when it has none). */
    private static JsonNode json(String answer, GenerateRequest request, List<String> keys) {
        if (request.wantsKeys(keys)) {
            Optional<ObjectNode> object = JsonText.findObject(answer);
            return object.isPresent() ? object.get() : TextNode.valueOf(answer);
        }
        return AnswerJson.value(answer)
                .orElseThrow(() -> ToolException.permanent("response_format is \"json\" but the answer holds no JSON: "
                        + "'" + LlmText.shorten(answer, 200) + "'"));
    }

    /** An answer that fits the request's schema, asking once more (with what was wrong) when the first does not. */
    private JsonNode fitting(
            List<ChatMessage> messages, GenerateRequest request, LlmConfig target, CallContext context) {
        boolean wrapped = !isObjectSchema(request.schema());
        ObjectNode sent = wrapped ? wrap(request.schema()) : request.schema();
        LlmClient strict = client(context, target, true);
        LlmClient.Prepared format = strict.prepare(AnswerShape.schema("answer", sent));
        List<ChatMessage> conversation = new ArrayList<>(messages);
        List<String> problems = List.of();
        for (int asked = 1; asked <= 2; asked++) {
            String answer = strict.ask(conversation, format, request, context.events());
            Optional<JsonNode> value =
                    AnswerJson.value(answer).map(format::restore).map(v -> wrapped ? unwrap(v) : v);
            problems = value.isEmpty()
                    ? List.of("it holds no JSON: " + "'" + LlmText.shorten(answer, 200) + "'")
                    : AnswerJson.problems(request.schema(), value.get());
            if (problems.isEmpty()) {
                return value.get();
            }
            conversation.add(AiMessage.from(answer));
            conversation.add(UserMessage.from("That answer does not fit the JSON Schema: " + String.join("; ", problems)
                    + ". Answer again, with JSON that fits it."));
        }
        throw ToolException.permanent(
                "the answer does not fit response_format, asked twice: " + String.join("; ", problems));
    }

    /** Whether strict structured output takes {@code schema} as it is: its top level must be an object. */
    private static boolean isObjectSchema(JsonNode schema) {
        return "object".equals(schema.path("type").asText()) || schema.has("properties");
    }

    /**
     * A schema whose top level is not an object ({@code {"type": "string", "enum": [...]}}, an array, a number)
     * sent as the one property {@code value} of an object, since strict structured output takes an object only.
     */
    private static ObjectNode wrap(JsonNode schema) {
        ObjectNode object = JsonNodeFactory.instance.objectNode().put("type", "object");
        object.putObject("properties").set("value", schema);
        object.putArray("required").add("value");
        object.put("additionalProperties", false);
        return object;
    }

    /** The value inside a wrapped answer ({@code {"value": ...}}); an answer that is not wrapped is taken as it is. */
    private static JsonNode unwrap(JsonNode answer) {
        return answer.isObject() && answer.size() == 1 && answer.has("value") ? answer.get("value") : answer;
    }

    /**
     * The client whose HTTP timeout is the attempt's (one precedence for every tool: {@link Tool#defaultCallTimeout()});
     * {@code strict}: one that asks the server to hold a JSON Schema answer to the schema exactly.
     */
    private LlmClient client(CallContext context, LlmConfig target, boolean strict) {
        if (config == null) {
            return client;
        }
        Duration timeout = context.timeout();
        boolean configured = timeout == null || timeout.equals(target.timeout());
        if (configured && !strict && target.equals(config)) {
            return client;
        }
        LlmConfig timed = configured ? target : target.withTimeout(timeout);
        return clients.computeIfAbsent(
                new ClientKey(timed, strict),
                key -> new LlmClient(
                        key.config().chatModel(key.strict()),
                        LlmFailures.of(key.config()),
                        key.config().provider()));
    }

    private record ClientKey(LlmConfig config, boolean strict) {}

    private record Route(LlmConfig config, String model) {}

    @Override
    public String toString() {
        return "Tool[llm_generate]";
    }
}
