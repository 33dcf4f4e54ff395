package dev.planvm.integrations.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonPointers;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A JSON body with references in its strings: a string that is exactly one {@code ${name}} becomes
 * the param's JSON value (a number stays a number, an object an object; an absent param drops the
 * key, or gives {@code null} in an array); references embedded in text are rendered as text. Strings
 * are parsed once ({@link #parse}); {@link #render} builds the body of one call.
 */
public final class BodyTemplate {

    private final JsonNode shape;
    private final Map<String, Template> strings;

    private BodyTemplate(JsonNode shape, Map<String, Template> strings) {
        this.shape = shape;
        this.strings = strings;
    }

    /**
     * @throws IllegalArgumentException naming the JSON pointer (inside the body) of a bad reference
     */
    public static BodyTemplate parse(JsonNode body) {
        Map<String, Template> strings = new LinkedHashMap<>();
        collect(body, "", strings);
        return new BodyTemplate(body.deepCopy(), strings);
    }

    private static void collect(JsonNode node, String pointer, Map<String, Template> strings) {
        if (node.isTextual()) {
            try {
                strings.put(pointer, Template.parse(node.asText()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException((pointer.isEmpty() ? "" : "at " + pointer + ": ") + e.getMessage());
            }
        } else if (node.isObject()) {
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                collect(field.getValue(), pointer + "/" + JsonPointers.escape(field.getKey()), strings);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(node.get(i), pointer + "/" + i, strings);
            }
        }
    }

    /** The params the body reads. */
    public Set<String> params() {
        Set<String> names = new LinkedHashSet<>();
        strings.values().forEach(template -> names.addAll(template.params()));
        return names;
    }

    /** The secrets the body reads. */
    public Set<String> secrets() {
        Set<String> names = new LinkedHashSet<>();
        strings.values().forEach(template -> names.addAll(template.secrets()));
        return names;
    }

    /** The body of one call. */
    public JsonNode render(JsonNode params) {
        JsonNode rendered = render(shape, "", params);
        return rendered == null ? JsonNodeFactory.instance.nullNode() : rendered;
    }

    /** The rendered node, or null when it is a sole reference to an absent param. */
    private JsonNode render(JsonNode node, String pointer, JsonNode params) {
        if (node.isTextual()) {
            Template template = strings.get(pointer);
            String sole = template.soleParam();
            if (sole != null) {
                return params.get(sole);
            }
            return TextNode.valueOf(template.render(params, name -> "", Template.Encoding.TEXT));
        }
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                JsonNode value = render(field.getValue(), pointer + "/" + JsonPointers.escape(field.getKey()), params);
                if (value != null) {
                    copy.set(field.getKey(), value);
                }
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            for (int i = 0; i < node.size(); i++) {
                JsonNode value = render(node.get(i), pointer + "/" + i, params);
                copy.add(value == null ? JsonNodeFactory.instance.nullNode() : value);
            }
            return copy;
        }
        return node;
    }
}
