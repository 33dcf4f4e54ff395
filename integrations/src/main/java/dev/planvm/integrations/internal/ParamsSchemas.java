package dev.planvm.integrations.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.json.JsonPointers;
import dev.planvm.tools.JsonSchemas;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Checks the params schemas a configuration or a server declares, and derives one from template references. */
public final class ParamsSchemas {

    private static final SchemaRegistry REGISTRY =
            SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    private static volatile Schema metaSchema;

    private ParamsSchemas() {}

    /**
     * Why {@code schema} cannot serve as a params schema (not a JSON Schema, not for an object, or one with a
     * {@code $ref} cycle no call could be checked against), or empty.
     */
    public static Optional<String> problem(JsonNode schema) {
        if (!schema.isObject()) {
            return Optional.of("a params schema must be a JSON Schema object, not " + Json.kind(schema));
        }
        JsonNode type = schema.get("type");
        if (type != null && !(type.isTextual() && type.asText().equals("object"))) {
            return Optional.of("a params schema must describe an object (\"type\": \"object\"), not " + type);
        }
        try {
            List<Error> errors = meta().validate(schema);
            if (!errors.isEmpty()) {
                Error first = errors.get(0);
                String at = pointer(first);
                return Optional.of(
                        "not a valid JSON Schema" + (at.isEmpty() ? "" : " at " + at) + ": " + first.getMessage());
            }
            REGISTRY.getSchema(schema);
            return JsonSchemas.problem(schema).map(cycle -> "not a usable JSON Schema: " + cycle);
        } catch (RuntimeException e) {
            return Optional.of("not a usable JSON Schema: " + Json.shorten(String.valueOf(e.getMessage()), 200));
        }
    }

    /** {@code {"type": "object", "properties": {name: {}...}, "required": [names]}}. */
    public static ObjectNode requiring(Collection<String> names) {
        ObjectNode schema = JsonNodeFactory.instance.objectNode();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ArrayNode required = schema.putArray("required");
        for (String name : names) {
            properties.putObject(name);
            required.add(name);
        }
        return schema;
    }

    private static Schema meta() {
        Schema current = metaSchema;
        if (current == null) {
            current = REGISTRY.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));
            metaSchema = current;
        }
        return current;
    }

    private static String pointer(Error error) {
        StringBuilder pointer = new StringBuilder();
        var path = error.getInstanceLocation();
        for (int i = 0; i < path.getNameCount(); i++) {
            pointer.append('/').append(JsonPointers.escape(String.valueOf(path.getElement(i))));
        }
        return pointer.toString();
    }
}
