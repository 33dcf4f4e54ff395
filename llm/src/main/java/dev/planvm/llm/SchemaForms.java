package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.ToolException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON Schema in the form a provider's structured output takes, and the way back from an answer in that
 * form. planvm checks every answer against the plan's own schema afterwards (one re-ask on a misfit), so a
 * form may be looser than the original where the provider cannot express a rule: such keywords are left out
 * and written into the {@code description}, so the model still reads them.
 *
 * <ul>
 *   <li><b>OpenAI strict</b> (OpenAI, Azure OpenAI; {@code "strict": true}): every object gets
 *       {@code additionalProperties: false}; every property is {@code required}, an optional one made nullable
 *       (its type joined with {@code "null"}) — {@link #restore} drops the {@code null}s the model then sends for
 *       them; only the keywords strict mode takes are kept (no {@code default}, {@code minLength},
 *       {@code allOf}, {@code oneOf}, {@code not}, {@code if}, ...).
 *   <li><b>Anthropic</b> ({@code output_config.format}): {@code additionalProperties: false} on every object; no
 *       numeric, string-length or array-size bounds (but {@code minItems} 0 or 1); a recursive schema is refused.
 *   <li><b>Gemini</b> ({@code responseJsonSchema}): the keywords of its documented subset only.
 *   <li><b>Mistral</b> ({@code json_schema}, {@code "strict": true}): {@code additionalProperties: false} on every
 *       object.
 *   <li><b>Ollama</b> ({@code format}): the schema as it is (its grammar takes what it knows).
 * </ul>
 */
final class SchemaForms {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Keywords that hold subschemas, walked into: by name, in an array, or a map of them. */
    private static final Set<String> ONE = Set.of("items", "additionalProperties", "not", "if", "then", "else");

    private static final Set<String> MANY = Set.of("anyOf", "allOf", "oneOf", "prefixItems");
    private static final Set<String> MAP = Set.of("properties", "$defs", "definitions");

    private static final Set<String> OPENAI = Set.of(
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
    private static final Set<String> ANTHROPIC = Set.of(
            "type",
            "properties",
            "required",
            "additionalProperties",
            "items",
            "enum",
            "const",
            "anyOf",
            "allOf",
            "$ref",
            "$defs",
            "definitions",
            "description",
            "title",
            "format",
            "minItems");
    private static final Set<String> GEMINI = Set.of(
            "$id",
            "$defs",
            "$ref",
            "$anchor",
            "type",
            "format",
            "title",
            "description",
            "enum",
            "items",
            "prefixItems",
            "minItems",
            "maxItems",
            "minimum",
            "maximum",
            "anyOf",
            "oneOf",
            "properties",
            "additionalProperties",
            "required",
            "propertyOrdering");

    private SchemaForms() {}

    /**
     * {@code schema} in the form {@code provider} takes (a copy); null provider: as it is.
     *
     * @throws ToolException (permanent) naming the provider, when it cannot take the schema at all
     */
    static ObjectNode form(LlmProvider provider, ObjectNode schema) {
        ObjectNode copy = schema.deepCopy();
        copy.remove("$schema");
        if (provider == null) {
            return copy;
        }
        switch (provider) {
            case OPENAI, AZURE_OPENAI -> walk(copy, OPENAI, true, true);
            case ANTHROPIC -> {
                refuseRecursion(provider, copy);
                walk(copy, ANTHROPIC, true, false);
            }
            case GEMINI -> walk(copy, GEMINI, false, false);
            case MISTRAL -> walk(copy, null, true, false);
            case OLLAMA -> {
                // Ollama's grammar takes the schema as it is
            }
        }
        return copy;
    }

    /**
     * An answer to the {@code provider}'s form of {@code schema} as an answer to {@code schema}: for OpenAI's strict
     * form, the {@code null}s of properties that the original leaves optional and does not let be null are
     * dropped. Other forms need nothing.
     */
    static JsonNode restore(LlmProvider provider, ObjectNode schema, JsonNode answer) {
        if (provider != LlmProvider.OPENAI && provider != LlmProvider.AZURE_OPENAI) {
            return answer;
        }
        JsonNode copy = answer.deepCopy();
        dropAddedNulls(schema, schema, copy, 0);
        return copy;
    }

    /**
     * Rewrites {@code node} (a schema) in place: keeps the {@code allowed} keywords (all when null), notes the
     * others in its description, closes objects ({@code additionalProperties: false}) when {@code close}, makes
     * every property required (optional ones nullable) when {@code requireAll}.
     */
    private static void walk(ObjectNode node, Set<String> allowed, boolean close, boolean requireAll) {
        for (String key : iterable(node.fieldNames())) {
            JsonNode value = node.get(key);
            if (ONE.contains(key) && value.isObject()) {
                walk((ObjectNode) value, allowed, close, requireAll);
            } else if (MANY.contains(key) && value.isArray()) {
                value.forEach(v -> {
                    if (v.isObject()) {
                        walk((ObjectNode) v, allowed, close, requireAll);
                    }
                });
            } else if (MAP.contains(key) && value.isObject()) {
                value.forEach(v -> {
                    if (v.isObject()) {
                        walk((ObjectNode) v, allowed, close, requireAll);
                    }
                });
            }
        }
        boolean object =
                node.has("properties") || "object".equals(node.path("type").asText());
        if (object && close) {
            JsonNode extra = node.get("additionalProperties");
            if (extra != null && !(extra.isBoolean() && !extra.asBoolean())) {
                note(node, "additionalProperties", extra);
            }
            node.put("additionalProperties", false);
            if (!node.has("properties")) {
                node.putObject("properties");
            }
        }
        if (object && requireAll) {
            requireAll(node);
        }
        if (allowed != null) {
            if (!allowed.contains("oneOf") && node.has("oneOf") && !node.has("anyOf")) {
                node.set("anyOf", node.remove("oneOf")); // looser: the check against the plan's schema keeps "one"
            }
            for (String key : iterable(node.fieldNames())) {
                JsonNode value = node.get(key);
                boolean tooBig = key.equals("minItems") && allowed == ANTHROPIC && value.asInt(0) > 1;
                if (!allowed.contains(key) || tooBig) {
                    node.remove(key);
                    note(node, key, value);
                }
            }
        }
    }

    /** Every property required; those that were not, nullable. */
    private static void requireAll(ObjectNode node) {
        Set<String> required = new LinkedHashSet<>();
        node.path("required").forEach(name -> required.add(name.asText()));
        ArrayNode all = JSON.arrayNode();
        for (Map.Entry<String, JsonNode> property :
                List.copyOf(node.path("properties").properties())) {
            all.add(property.getKey());
            if (!required.contains(property.getKey()) && property.getValue().isObject()) {
                ((ObjectNode) node.get("properties"))
                        .set(property.getKey(), nullable((ObjectNode) property.getValue()));
            }
        }
        node.set("required", all);
    }

    /** {@code schema}, also allowing {@code null}. */
    private static ObjectNode nullable(ObjectNode schema) {
        if (allowsNull(schema)) {
            return schema;
        }
        JsonNode type = schema.get("type");
        if (type != null && type.isTextual() && !schema.has("anyOf") && !schema.has("$ref")) {
            schema.set("type", JSON.arrayNode().add(type.asText()).add("null"));
            if (schema.get("enum") instanceof ArrayNode values) {
                values.addNull();
            }
            return schema;
        }
        if (type != null && type.isArray()) {
            ((ArrayNode) type).add("null");
            if (schema.get("enum") instanceof ArrayNode values) {
                values.addNull();
            }
            return schema;
        }
        if (schema.get("anyOf") instanceof ArrayNode branches && schema.size() == 1) {
            branches.addObject().put("type", "null");
            return schema;
        }
        ObjectNode either = JSON.objectNode();
        JsonNode description = schema.remove("description");
        if (description != null) {
            either.set("description", description);
        }
        either.putArray("anyOf").add(schema).addObject().put("type", "null");
        return either;
    }

    private static boolean allowsNull(JsonNode schema) {
        JsonNode type = schema.get("type");
        if (type != null && (type.asText().equals("null") || (type.isArray() && contains(type, "null")))) {
            return true;
        }
        for (JsonNode branch : schema.path("anyOf")) {
            if (allowsNull(branch)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode array, String text) {
        for (JsonNode item : array) {
            if (item.asText().equals(text)) {
                return true;
            }
        }
        return false;
    }

    /** Writes a keyword the form leaves out into the description, so the model still reads it. */
    private static void note(ObjectNode node, String key, JsonNode value) {
        String rule = "{\"" + key + "\": " + value + "}";
        String description = node.path("description").asText("");
        node.put("description", (description.isEmpty() ? "" : description + " ") + "Must also fit " + rule + ".");
    }

    /** Drops the {@code null}s a strict answer holds for properties the original left optional and non-null. */
    private static void dropAddedNulls(ObjectNode root, JsonNode schema, JsonNode value, int depth) {
        if (depth > 64 || schema == null || !schema.isObject()) {
            return;
        }
        JsonNode resolved = resolve(root, schema);
        if (value.isObject()) {
            Set<String> required = new HashSet<>();
            resolved.path("required").forEach(name -> required.add(name.asText()));
            ObjectNode object = (ObjectNode) value;
            for (String key : iterable(object.fieldNames())) {
                JsonNode property = resolved.path("properties").get(key);
                if (property == null) {
                    continue;
                }
                if (object.get(key).isNull() && !required.contains(key) && !allowsNull(resolve(root, property))) {
                    object.remove(key);
                } else {
                    dropAddedNulls(root, property, object.get(key), depth + 1);
                }
            }
        } else if (value.isArray() && resolved.path("items").isObject()) {
            value.forEach(item -> dropAddedNulls(root, resolved.get("items"), item, depth + 1));
        }
        for (JsonNode branch : resolved.path("anyOf")) {
            dropAddedNulls(root, branch, value, depth + 1);
        }
    }

    /** A local {@code $ref} ({@code #/$defs/name}) followed; anything else as it is. */
    private static JsonNode resolve(ObjectNode root, JsonNode schema) {
        JsonNode current = schema;
        for (int hops = 0; hops < 16 && current.path("$ref").isTextual(); hops++) {
            String ref = current.get("$ref").asText();
            if (!ref.startsWith("#")) {
                return current;
            }
            JsonNode target = root.at(ref.substring(1));
            if (target.isMissingNode()) {
                return current;
            }
            current = target;
        }
        return current;
    }

    /** Anthropic's structured output takes no recursive schema: a definition that reaches itself through {@code $ref}s. */
    private static void refuseRecursion(LlmProvider provider, ObjectNode schema) {
        Map<String, Set<String>> edges = new java.util.HashMap<>();
        for (String section : List.of("$defs", "definitions")) {
            for (Map.Entry<String, JsonNode> def : schema.path(section).properties()) {
                Set<String> refs = new HashSet<>();
                collectRefs(def.getValue(), refs);
                edges.put("#/" + section + "/" + def.getKey(), refs);
            }
        }
        for (String start : edges.keySet()) {
            List<String> stack = new ArrayList<>(edges.get(start));
            Set<String> seen = new HashSet<>();
            while (!stack.isEmpty()) {
                String next = stack.remove(stack.size() - 1);
                if (next.equals(start) || next.equals("#")) {
                    throw ToolException.permanent(
                            provider.id() + ": structured output does not take a recursive JSON " + "Schema ("
                                    + start.substring(2) + " refers to itself); give response_format \"json\" instead");
                }
                if (seen.add(next)) {
                    stack.addAll(edges.getOrDefault(next, Set.of()));
                }
            }
        }
    }

    private static void collectRefs(JsonNode node, Set<String> refs) {
        if (node.isObject()) {
            if (node.path("$ref").isTextual()) {
                refs.add(node.get("$ref").asText());
            }
            node.forEach(child -> collectRefs(child, refs));
        } else if (node.isArray()) {
            node.forEach(child -> collectRefs(child, refs));
        }
    }

    private static <T> List<T> iterable(Iterator<T> iterator) {
        List<T> items = new ArrayList<>();
        iterator.forEachRemaining(items::add);
        return items;
    }
}
