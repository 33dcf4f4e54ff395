package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonPointers;
import dev.planvm.tools.ToolSetup;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code llm} section of {@code planvm.json}: named models and which one {@code llm_generate}, conditions and
 * the planner use.
 *
 * <pre>{@code
 * "llm": {
 *   "model": "smart",                     // the default: a name below, provider:model, or a model name
 *   "conditions": "local",                // LLM conditions (default: the default)
 *   "planner": "anthropic:claude-sonnet-4-5",
 *   "models": {
 *     "smart": {"provider": "anthropic", "model": "claude-sonnet-4-5", "max_tokens": 8192},
 *     "local": {"provider": "ollama", "model": "llama3.2", "base_url": "http://127.0.0.1:11434"}
 *   }
 * }
 * }</pre>
 *
 * A model's key comes from {@code api_key_secret} (a secret's name: {@code --secret NAME}, else the environment
 * variable NAME), else from its provider's usual variable; a key is never written in the file. Every key read is
 * a secret, redacted wherever planvm writes things down.
 *
 * @param model      the default model spec, or null
 * @param conditions the conditions' model spec, or null
 * @param planner    the planner's model spec, or null
 * @param models     the named models, by name, in the file's order
 */
record LlmSection(String model, String conditions, String planner, Map<String, LlmConfig> models) {

    /** The key it has in {@code planvm.json}. */
    static final String KEY = "llm";

    static final LlmSection EMPTY = new LlmSection(null, null, null, Map.of());

    /** The JSON Schema of the section. */
    static JsonNode schema() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode schema = json.objectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode properties = schema.putObject("properties");
        for (String spec : new String[] {"model", "conditions", "planner"}) {
            properties.putObject(spec).put("type", "string").put("minLength", 1).put("maxLength", 200);
        }
        ObjectNode models = properties.putObject("models").put("type", "object");
        models.putObject("propertyNames").put("pattern", "^[A-Za-z0-9_.-]{1,64}$");
        ObjectNode one =
                models.putObject("additionalProperties").put("type", "object").put("additionalProperties", false);
        one.putArray("required").add("provider");
        ObjectNode fields = one.putObject("properties");
        ArrayNode ids = fields.putObject("provider").putArray("enum");
        for (LlmProvider provider : LlmProvider.values()) {
            ids.add(provider.id());
        }
        for (String text : new String[] {"model", "base_url", "api_key_secret"}) {
            fields.putObject(text).put("type", "string").put("minLength", 1).put("maxLength", 2000);
        }
        fields.putObject("max_tokens").put("type", "integer").put("minimum", 1);
        fields.putObject("timeout_seconds").put("type", "number").put("exclusiveMinimum", 0);
        return schema;
    }

    /**
     * The section of {@code setup} (already checked against {@link #schema()}); a model that cannot be used is
     * reported with {@link ToolSetup#problem} when {@code report}, and left out.
     */
    static LlmSection read(ToolSetup setup, LlmEnvironment environment, boolean report) {
        JsonNode section = setup.section(KEY).orElse(null);
        if (section == null || !section.isObject()) {
            return EMPTY;
        }
        Map<String, LlmConfig> models = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : section.path("models").properties()) {
            String pointer = "/" + KEY + "/models/" + JsonPointers.escape(entry.getKey());
            try {
                models.put(entry.getKey(), model(entry.getValue(), setup, environment));
            } catch (IllegalArgumentException e) {
                if (report) {
                    setup.problem(pointer, e.getMessage());
                }
            }
        }
        return new LlmSection(
                text(section, "model"), text(section, "conditions"), text(section, "planner"), Map.copyOf(models));
    }

    /** Which specs name the model of which key, for messages: {@code /llm/model}. */
    static String pointer(String key) {
        return "/" + KEY + "/" + key;
    }

    private static LlmConfig model(JsonNode model, ToolSetup setup, LlmEnvironment environment) {
        LlmProvider provider = LlmProvider.byId(model.path("provider").asText()).orElseThrow();
        String secret = text(model, "api_key_secret");
        String key;
        if (secret != null) {
            key = setup.secret(secret)
                    .orElseThrow(() -> new IllegalArgumentException("api_key_secret names '" + secret
                            + "', which is neither a --secret nor set in the environment"));
        } else {
            key = null;
            for (String variable : provider.keyVariables()) {
                if (key == null
                        && setup.environment().get(variable) != null
                        && !setup.environment().get(variable).isBlank()) {
                    key = setup.secret(variable).orElse(null);
                }
            }
        }
        String url = text(model, "base_url");
        if (url == null) {
            url = setup.environment().get(provider.urlVariable());
        }
        String name = text(model, "model");
        if (name == null && provider == LlmProvider.AZURE_OPENAI) {
            name = setup.environment().get(LlmProvider.AZURE_DEPLOYMENT_VARIABLE);
        }
        if (name == null) {
            name = provider.defaultModel().orElse(null);
        }
        Duration timeout = model.has("timeout_seconds")
                ? LlmConfig.timeout(model.get("timeout_seconds").asText())
                : environment.timeout();
        Integer maxTokens = model.has("max_tokens") ? model.get("max_tokens").asInt() : null;
        return new LlmConfig(provider, key, url, name, timeout, environment.maxResponseBytes(), maxTokens);
    }

    private static String text(JsonNode node, String key) {
        JsonNode value = node.get(key);
        return value == null || !value.isTextual() || value.asText().isBlank() ? null : value.asText();
    }
}
