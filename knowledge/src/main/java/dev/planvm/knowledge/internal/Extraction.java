package dev.planvm.knowledge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The entities and relationships the LLM found in one chunk, read leniently from its answer and bounded:
 * at most {@value #MAX_ENTITIES} entities and {@value #MAX_RELATIONSHIPS} relationships, names cut at
 * {@value #MAX_NAME} characters and descriptions at {@value #MAX_DESCRIPTION}.
 */
public record Extraction(List<Entity> entities, List<Relationship> relationships) {

    public static final String PROMPT = """
            Extract a knowledge graph from the text in the context: the entities it names (products, components, \
            features, concepts, people, organisations, versions, commands, settings) and how they relate.
            Answer with a JSON object with two keys:
            "entities": an array of {"name": string, "type": string, "description": string}, the description saying \
            in one or two sentences what the text tells about the entity;
            "relationships": an array of {"source": entity name, "target": entity name, "description": string}, \
            the description saying how the source relates to the target.
            Use only what the text says. Use the same name for the same entity everywhere.""";

    public static final List<String> KEYS = List.of("entities", "relationships");

    static final int MAX_ENTITIES = 50;
    static final int MAX_RELATIONSHIPS = 100;
    static final int MAX_NAME = 200;
    static final int MAX_DESCRIPTION = 1000;
    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.KNOWLEDGE);

    public Extraction {
        entities = List.copyOf(entities);
        relationships = List.copyOf(relationships);
    }

    /** An entity as extracted. */
    public record Entity(String name, String type, String description) {}

    /** A relationship as extracted, between entity names. */
    public record Relationship(String source, String target, String description) {}

    /** The context sent for a chunk: its title, heading path (when it is more than the title) and text. */
    public static String context(String title, String heading, String content) {
        StringBuilder context = new StringBuilder("Document: ").append(title).append('\n');
        if (!heading.isEmpty() && !heading.equals(title)) {
            context.append("Section: ").append(heading).append('\n');
        }
        return context.append('\n').append(content).toString();
    }

    /** The extraction an answer holds, or empty when it holds no object with an {@code entities} array. */
    public static Optional<Extraction> fromAnswer(JsonNode answer) {
        JsonNode json = answer;
        if (json != null && json.isTextual()) {
            json = JsonText.findObject(json.asText()).orElse(null);
        }
        if (json == null || !json.isObject() || !json.path("entities").isArray()) {
            return Optional.empty();
        }
        List<Entity> entities = new ArrayList<>();
        for (JsonNode item : json.get("entities")) {
            if (entities.size() == MAX_ENTITIES) {
                break;
            }
            String name = text(item, MAX_NAME, "name", "entity", "entity_name");
            if (!name.isBlank()) {
                entities.add(new Entity(
                        name, text(item, MAX_NAME, "type", "entity_type"), text(item, MAX_DESCRIPTION, "description")));
            }
        }
        List<Relationship> relationships = new ArrayList<>();
        for (JsonNode item : json.path("relationships")) {
            if (relationships.size() == MAX_RELATIONSHIPS) {
                break;
            }
            String source = text(item, MAX_NAME, "source", "source_entity", "source_entity_name", "from");
            String target = text(item, MAX_NAME, "target", "target_entity", "target_entity_name", "to");
            if (!source.isBlank() && !target.isBlank()) {
                relationships.add(
                        new Relationship(source, target, text(item, MAX_DESCRIPTION, "description", "relation")));
            }
        }
        return Optional.of(new Extraction(entities, relationships));
    }

    /** This extraction as stored: compact JSON in the answer's own shape. */
    public String toJson() {
        ObjectNode json = MAPPER.createObjectNode();
        ArrayNode entityArray = json.putArray("entities");
        for (Entity entity : entities) {
            entityArray
                    .addObject()
                    .put("name", entity.name())
                    .put("type", entity.type())
                    .put("description", entity.description());
        }
        ArrayNode relationshipArray = json.putArray("relationships");
        for (Relationship relationship : relationships) {
            relationshipArray
                    .addObject()
                    .put("source", relationship.source())
                    .put("target", relationship.target())
                    .put("description", relationship.description());
        }
        return json.toString();
    }

    /** A stored extraction back (written by {@link #toJson}). */
    public static Extraction fromStored(String json) {
        try {
            return fromAnswer(MAPPER.readTree(json)).orElse(new Extraction(List.of(), List.of()));
        } catch (java.io.IOException e) {
            return new Extraction(List.of(), List.of());
        }
    }

    private static String text(JsonNode item, int max, String... keys) {
        if (item == null || !item.isObject()) {
            return item != null && item.isTextual() && keys[0].equals("name") ? cut(item.asText(), max) : "";
        }
        for (String key : keys) {
            JsonNode value = item.get(key);
            if (value != null && value.isValueNode() && !value.isNull()) {
                return cut(value.asText(), max);
            }
        }
        return "";
    }

    private static String cut(String text, int max) {
        String flat = text.replaceAll("\\s+", " ").strip();
        return flat.length() > max ? flat.substring(0, max) : flat;
    }
}
