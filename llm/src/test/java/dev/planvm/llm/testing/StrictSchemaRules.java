package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Set;

/**
 * The rules OpenAI's structured outputs set for a schema sent with {@code "strict": true}, as its guide on
 * supported schemas states them: the root is an object (not {@code anyOf}); every object has
 * {@code additionalProperties: false}; every property is in {@code required} (an optional one is written as a
 * union with {@code null}); only the supported keywords appear (types, {@code properties}, {@code required},
 * {@code additionalProperties}, {@code items}, {@code enum}, {@code const}, {@code anyOf}, {@code $ref},
 * {@code $defs}, descriptions, and the string, number and array bounds it lists); at most 10 levels of nesting.
 * Azure OpenAI applies the same rules.
 */
public final class StrictSchemaRules {

    private static final Set<String> SUPPORTED = Set.of(
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "const",
            "anyOf",
            "$ref",
            "$defs",
            "definitions",
            "description",
            "title",
            "pattern",
            "format",
            "multipleOf",
            "maximum",
            "exclusiveMaximum",
            "minimum",
            "exclusiveMinimum",
            "minItems",
            "maxItems");

    private StrictSchemaRules() {}

    /** What breaks the rules (one sentence with the location), or null when nothing does. */
    public static String problem(JsonNode schema) {
        if (!schema.isObject()) {
            return "the schema must be a JSON object";
        }
        if (schema.has("anyOf") || !"object".equals(schema.path("type").asText())) {
            return "the root schema must be an object, not anyOf";
        }
        return walk(schema, "()", 0);
    }

    private static String walk(JsonNode schema, String where, int depth) {
        if (depth > 10) {
            return "In context=" + where + ", the schema nests more than 10 levels";
        }
        for (String key : (Iterable<String>) schema::fieldNames) {
            if (!SUPPORTED.contains(key)) {
                return "In context=" + where + ", '" + key + "' is not permitted.";
            }
        }
        boolean object = schema.has("properties")
                || "object".equals(schema.path("type").asText())
                || (schema.path("type").isArray()
                        && schema.path("type").toString().contains("\"object\""));
        if (object) {
            JsonNode extra = schema.get("additionalProperties");
            if (extra == null || !extra.isBoolean() || extra.asBoolean()) {
                return "In context=" + where + ", 'additionalProperties' is required to be supplied and to be false.";
            }
            Set<String> required = new HashSet<>();
            schema.path("required").forEach(name -> required.add(name.asText()));
            for (String name :
                    (Iterable<String>) () -> schema.path("properties").fieldNames()) {
                if (!required.contains(name)) {
                    return "In context=" + where + ", 'required' is required to be supplied and to be an array"
                            + " including every key in properties. Missing '" + name + "'.";
                }
            }
        }
        for (var property : schema.path("properties").properties()) {
            String problem =
                    walk(property.getValue(), where + ", 'properties', '" + property.getKey() + "'", depth + 1);
            if (problem != null) {
                return problem;
            }
        }
        for (String map : new String[] {"$defs", "definitions"}) {
            for (var def : schema.path(map).properties()) {
                String problem = walk(def.getValue(), where + ", '" + map + "', '" + def.getKey() + "'", depth + 1);
                if (problem != null) {
                    return problem;
                }
            }
        }
        if (schema.path("items").isObject()) {
            String problem = walk(schema.get("items"), where + ", 'items'", depth + 1);
            if (problem != null) {
                return problem;
            }
        }
        int i = 0;
        for (JsonNode branch : schema.path("anyOf")) {
            String problem = walk(branch, where + ", 'anyOf', " + i++, depth + 1);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }
}
