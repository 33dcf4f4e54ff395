package dev.planvm.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.knowledge.spi.ChunkHit;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;

/**
 * {@code vector_search(query, top_k=10)}: the chunks of a knowledge base nearest the query, best first,
 * as StackVM returns them ({@code [{"content", "source_uri", "score", "chunk_id", "meta"}]}), kept within
 * the token budget. Read-only and thread-safe.
 */
final class VectorSearchTool implements Tool {

    static final String NAME = "vector_search";
    static final int MAX_QUERY_CHARS = 8000;

    private final KnowledgeBase kb;
    private final ObjectNode schema;

    VectorSearchTool(KnowledgeBase kb) {
        this.kb = kb;
        QuerySettings settings = kb.settings();
        JsonNodeFactory json = JsonNodeFactory.instance;
        schema = json.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties
                .putObject("query")
                .put("type", "string")
                .put("minLength", 1)
                .put("maxLength", MAX_QUERY_CHARS)
                .put("description", "what to search for, in natural language");
        properties
                .putObject("top_k")
                .put("type", "integer")
                .put("minimum", 1)
                .put("maximum", settings.maxTopK())
                .put("default", settings.defaultTopK())
                .put("description", "how many chunks to return at most");
        properties
                .putObject("token_budget")
                .put("type", "integer")
                .put("minimum", 1)
                .put(
                        "description",
                        "keep the best chunks whose tokens add up to at most this (never above the configured "
                                + settings.tokenBudget() + ")");
        schema.putArray("required").add("query");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Semantic search over the local documents of knowledge base '" + kb.name() + "': the chunks nearest the "
                + "query, best first, as [{content, source_uri, score, chunk_id, meta}].";
    }

    @Override
    public JsonNode paramsSchema() {
        return schema;
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        String query = params.path("query").asText("");
        if (query.isBlank()) {
            throw ToolException.permanent("vector_search needs a non-empty 'query'");
        }
        int topK = params.path("top_k").isIntegralNumber()
                ? params.get("top_k").asInt()
                : kb.settings().defaultTopK();
        int budget = kb.settings().tokenBudget();
        if (params.path("token_budget").isIntegralNumber()) {
            budget = (int)
                    Math.max(1, Math.min(budget, params.get("token_budget").asLong()));
        }
        try {
            ArrayNode hits = JsonNodeFactory.instance.arrayNode();
            for (ChunkHit hit : kb.search(query, topK, budget)) {
                hits.add(hit.toJson());
            }
            return hits;
        } catch (KnowledgeException e) {
            throw new ToolException(e.getMessage(), e.retriable(), e);
        }
    }

    @Override
    public String toString() {
        return "Tool[" + NAME + " on " + kb.name() + "]";
    }
}
