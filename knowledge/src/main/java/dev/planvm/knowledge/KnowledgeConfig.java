package dev.planvm.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.tools.ToolSetup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The {@code knowledge} section of the tools configuration:
 *
 * <pre>
 * "knowledge": {
 *   "kb": "docs",                  the knowledge base (required)
 *   "root": ".planvm/kb",          where knowledge bases live, relative to the configuration file
 *   "top_k": 10,                   vector_search's top_k when a call gives none
 *   "token_budget": 10240,         most tokens vector_search returns
 *   "graph_depth": 2,              relationship hops retrieve_knowledge_graph follows
 *   "graph_max_entities": 50,
 *   "graph_max_relationships": 100,
 *   "embeddings": {                only for a knowledge base built through an OpenAI-compatible endpoint
 *     "base_url": "http://localhost:11434/v1", "model": "nomic-embed-text",
 *     "api_key_secret": "EMBEDDINGS_KEY", "timeout_seconds": 60
 *   }
 * }
 * </pre>
 *
 * Without {@code embeddings}, the environment's {@code PLANVM_EMBEDDINGS_*} variables are used, if set.
 */
record KnowledgeConfig(String kb, Path root, QuerySettings settings, Optional<EmbeddingEndpoint> endpoint) {

    static final String SECTION = "knowledge";

    /** The JSON Schema (draft 2020-12) of the section. */
    static ObjectNode schema() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode schema = json.objectNode().put("type", "object").put("additionalProperties", false);
        ObjectNode properties = schema.putObject("properties");
        properties
                .putObject("kb")
                .put("type", "string")
                .put("pattern", "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
                .put("description", "the knowledge base's name (planvm kb list)");
        properties
                .putObject("root")
                .put("type", "string")
                .put("minLength", 1)
                .put("description", "where knowledge bases live (default " + KnowledgeBases.DEFAULT_ROOT + ")");
        properties.putObject("top_k").put("type", "integer").put("minimum", 1).put("maximum", 100);
        properties
                .putObject("token_budget")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 1_000_000);
        properties
                .putObject("graph_depth")
                .put("type", "integer")
                .put("minimum", 0)
                .put("maximum", 5);
        properties
                .putObject("graph_max_entities")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 1000);
        properties
                .putObject("graph_max_relationships")
                .put("type", "integer")
                .put("minimum", 0)
                .put("maximum", 5000);
        ObjectNode embeddings =
                properties.putObject("embeddings").put("type", "object").put("additionalProperties", false);
        ObjectNode endpoint = embeddings.putObject("properties");
        endpoint.putObject("base_url").put("type", "string").put("minLength", 1);
        endpoint.putObject("model").put("type", "string").put("minLength", 1);
        endpoint.putObject("api_key_secret")
                .put("type", "string")
                .put("minLength", 1)
                .put("description", "the name of the secret (or environment variable) holding the key");
        endpoint.putObject("timeout_seconds")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", 600);
        embeddings.putArray("required").add("base_url");
        schema.putArray("required").add("kb");
        return schema;
    }

    /** The configuration in {@code section}, or empty after reporting its problems to {@code setup}. */
    static Optional<KnowledgeConfig> read(JsonNode section, ToolSetup setup) {
        String at = "/" + SECTION;
        if (section == null || !section.isObject()) {
            setup.problem(at, "the knowledge section must be an object such as {\"kb\": \"docs\"}");
            return Optional.empty();
        }
        JsonNode kb = section.get("kb");
        if (kb == null || !kb.isTextual() || kb.asText().isBlank()) {
            setup.problem(
                    at + "/kb", "name the knowledge base to search, e.g. \"kb\": \"docs\" (see `planvm kb list`)");
            return Optional.empty();
        }
        Path root = setup.resolve(section.path("root").asText(KnowledgeBases.DEFAULT_ROOT));
        QuerySettings settings;
        try {
            QuerySettings defaults = QuerySettings.defaults();
            settings = defaults.withTopK(intAt(section, "top_k", defaults.defaultTopK()))
                    .withTokenBudget(intAt(section, "token_budget", defaults.tokenBudget()))
                    .withGraph(
                            defaults.graphSeeds(),
                            intAt(section, "graph_depth", defaults.graphDepth()),
                            intAt(section, "graph_max_entities", defaults.graphMaxEntities()),
                            intAt(section, "graph_max_relationships", defaults.graphMaxRelationships()));
        } catch (KnowledgeException e) {
            setup.problem(at, e.getMessage());
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new KnowledgeConfig(kb.asText(), root, settings, endpoint(section.get("embeddings"), setup)));
        } catch (KnowledgeException e) {
            setup.problem(at + "/embeddings", e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<EmbeddingEndpoint> endpoint(JsonNode embeddings, ToolSetup setup) {
        if (embeddings == null || embeddings.isNull()) {
            if (setup.environment().get(EmbeddingEndpoint.BASE_URL_VARIABLE) == null) {
                return Optional.empty();
            }
            Optional<EmbeddingEndpoint> fromEnvironment = EmbeddingEndpoint.fromEnvironment(setup.environment());
            setup.secret(
                    EmbeddingEndpoint.API_KEY_VARIABLE); // recorded, so that the key is redacted wherever planvm writes
            return fromEnvironment;
        }
        if (!embeddings.isObject() || !embeddings.path("base_url").isTextual()) {
            throw new KnowledgeException("the embeddings endpoint needs a \"base_url\"");
        }
        String apiKey = null;
        if (embeddings.hasNonNull("api_key_secret")) {
            String secret = embeddings.get("api_key_secret").asText();
            apiKey = setup.secret(secret)
                    .orElseThrow(() -> new KnowledgeException("the secret '" + secret
                            + "' named by api_key_secret is not set (pass it with --secret or the environment)"));
        }
        return Optional.of(new EmbeddingEndpoint(
                EmbeddingEndpoint.parseUrl(embeddings.get("base_url").asText(), "base_url"),
                embeddings.path("model").asText(EmbeddingEndpoint.DEFAULT_MODEL),
                apiKey,
                Duration.ofSeconds(
                        embeddings.path("timeout_seconds").asLong(EmbeddingEndpoint.DEFAULT_TIMEOUT.toSeconds()))));
    }

    private static int intAt(JsonNode section, String key, int fallback) {
        JsonNode value = section.get(key);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new KnowledgeException("\"" + key + "\" must be a whole number, not " + value);
        }
        return value.asInt();
    }
}
