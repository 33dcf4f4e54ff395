package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON Schema in the words the reference shows it to the AI ({@code {{output}}} in a template, and the "Output:"
 * note it adds to the system message when it asks for JSON): one line per property, {@code * "name" is a required
 * text string representing its description}; a list's items on lines of their own; a list of objects as {@code This
 * is a list of object} and the object's lines under it.
 */
final class SchemaText {

    private SchemaText() {}

    /** {@code schema} in words, or null when it is not an object or a list schema. */
    static String of(JsonNode schema) {
        if (schema == null || !schema.isObject()) {
            return null;
        }
        String type = schema.path("type").asText("");
        if (type.equals("array") && schema.path("items").path("properties").isObject()) {
            return "This is a list of object\n" + indent(properties(schema.path("items")));
        }
        if (schema.path("properties").isObject()) {
            return properties(schema);
        }
        return null;
    }

    /** The property names the AI's answer is checked for: {@code required}, else every property. */
    static List<String> names(JsonNode schema) {
        JsonNode object = schema.path("type").asText("").equals("array") ? schema.path("items") : schema;
        List<String> names = new ArrayList<>();
        if (object.path("required").isArray()
                && !object.path("required").isEmpty()
                && !schema.path("type").asText("").equals("array")) {
            object.path("required").forEach(n -> names.add(n.asText()));
        } else {
            object.path("properties").fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    private static String properties(JsonNode schema) {
        Set<String> required = new java.util.HashSet<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        List<String> lines = new ArrayList<>();
        for (Map.Entry<String, JsonNode> p : schema.path("properties").properties()) {
            JsonNode property = p.getValue();
            String line =
                    "* \"" + p.getKey() + "\" is " + (required.contains(p.getKey()) ? "a required " : "an optional ")
                            + type(property) + representing(property);
            lines.add(line);
            JsonNode items = property.path("items");
            if (property.path("type").asText("").equals("array") && items.isObject() && items.has("description")) {
                lines.add("  - The " + singular(p.getKey()) + " is " + article(type(items)) + type(items)
                        + representing(items));
            }
        }
        return String.join("\n", lines);
    }

    private static String type(JsonNode schema) {
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            List<String> names = new ArrayList<>();
            type.forEach(t -> names.add(t.asText()));
            return String.join(",", names);
        }
        return switch (type.asText("")) {
            case "string" -> "text string";
            case "array" ->
                schema.path("items").has("type")
                        ? "list of " + schema.path("items").path("type").asText()
                        : "list";
            case "" -> "value";
            default -> type.asText();
        };
    }

    private static String representing(JsonNode schema) {
        String description = schema.path("description").asText("");
        return description.isEmpty() ? "" : " representing " + description;
    }

    private static String article(String type) {
        return "aeiou".indexOf(Character.toLowerCase(type.charAt(0))) >= 0 ? "an " : "a ";
    }

    private static String singular(String name) {
        return name.endsWith("s") && name.length() > 1 ? name.substring(0, name.length() - 1) : name;
    }

    private static String indent(String text) {
        return "  " + text.replace("\n", "\n  ");
    }

    /** The note the reference adds to the system message when it asks for JSON that fits {@code schema}. */
    static String hint(String words) {
        return "Output:\nJSON schema format:\n" + indent(words);
    }
}
