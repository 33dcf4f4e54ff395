package dev.planvm.knowledge.spi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What {@code retrieve_knowledge_graph} answers: the entities nearest the query, then the entities and
 * relationships reached from them, in that order.
 */
public record GraphAnswer(List<Entity> entities, List<Relationship> relationships) {

    public GraphAnswer {
        entities = List.copyOf(entities);
        relationships = List.copyOf(relationships);
    }

    /** An entity: a stable id (derived from its normalised name), its name and merged description. */
    public record Entity(long id, String name, String description) {}

    /** A relationship between two entities of the answer. */
    public record Relationship(long sourceEntityId, long targetEntityId, String description) {}

    /** StackVM's shape: {@code {"entities": [{"id", "name", "description"}], "relationships": [{"source_entity_id", "target_entity_id", "description"}]}}. */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        ArrayNode entityArray = json.putArray("entities");
        for (Entity entity : entities) {
            entityArray
                    .addObject()
                    .put("id", entity.id())
                    .put("name", entity.name())
                    .put("description", entity.description());
        }
        ArrayNode relationshipArray = json.putArray("relationships");
        for (Relationship relationship : relationships) {
            relationshipArray
                    .addObject()
                    .put("source_entity_id", relationship.sourceEntityId())
                    .put("target_entity_id", relationship.targetEntityId())
                    .put("description", relationship.description());
        }
        return json;
    }
}
