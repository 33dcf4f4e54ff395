package dev.planvm.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;

/**
 * {@code retrieve_knowledge_graph(query)}: the knowledge-graph entities nearest the query and what their
 * relationships reach, as StackVM returns them ({@code {"entities": [...], "relationships": [...]}}).
 * Read-only and thread-safe.
 */
final class KnowledgeGraphTool implements Tool {

    static final String NAME = "retrieve_knowledge_graph";

    private final KnowledgeBase kb;
    private final ObjectNode schema;

    KnowledgeGraphTool(KnowledgeBase kb) {
        this.kb = kb;
        schema = JsonNodeFactory.instance.objectNode().put("type", "object");
        schema.putObject("properties")
                .putObject("query")
                .put("type", "string")
                .put("minLength", 1)
                .put("maxLength", VectorSearchTool.MAX_QUERY_CHARS)
                .put("description", "the entities or topic to look up, in natural language");
        schema.putArray("required").add("query");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Knowledge-graph lookup in knowledge base '" + kb.name() + "': the entities nearest the query and those "
                + "their relationships reach (depth " + kb.settings().graphDepth() + "), as {entities: [{id, name, "
                + "description}], relationships: [{source_entity_id, target_entity_id, description}]}.";
    }

    @Override
    public JsonNode paramsSchema() {
        return schema;
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        String query = params.path("query").asText("");
        if (query.isBlank()) {
            throw ToolException.permanent("retrieve_knowledge_graph needs a non-empty 'query'");
        }
        try {
            return kb.graph(query).toJson();
        } catch (KnowledgeException e) {
            throw new ToolException(e.getMessage(), e.retriable(), e);
        }
    }

    @Override
    public String toString() {
        return "Tool[" + NAME + " on " + kb.name() + "]";
    }
}
