package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.JsonEquality;
import dev.planvm.json.JsonText;
import java.util.Iterator;

/** Builtins over collections: len, keys, values, contains, join. */
final class CollectionFunctions {

    private static final String DEFAULT_SEPARATOR = ",";

    private CollectionFunctions() {}

    static JsonNode len(JsonNode x) {
        if (x.isTextual()) {
            String s = x.textValue();
            return IntNode.valueOf(s.codePointCount(0, s.length()));
        }
        if (x.isArray() || x.isObject()) {
            return IntNode.valueOf(x.size());
        }
        throw Builtins.needs("len", "text, an array or an object", x);
    }

    static JsonNode keys(JsonNode x) {
        JsonNode object = object("keys", x);
        ArrayNode keys = JsonNodeFactory.instance.arrayNode(object.size());
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            keys.add(names.next());
        }
        return keys;
    }

    static JsonNode values(JsonNode x) {
        JsonNode object = object("values", x);
        ArrayNode values = JsonNodeFactory.instance.arrayNode(object.size());
        for (JsonNode value : object) {
            values.add(value);
        }
        return values;
    }

    /**
     * Text: rendered {@code b} is a substring; array: an element equals {@code b}; object: key str(b).
     * {@code b} is rendered only when it is short enough to be found: no longer than the text, or
     * than the longest key, so a huge {@code b} costs nothing.
     */
    static JsonNode contains(JsonNode a, JsonNode b) {
        if (a.isTextual()) {
            String text = a.textValue();
            return bool(RenderedLength.of(b, text.length()) <= text.length() && text.contains(Interpolator.render(b)));
        }
        if (a.isArray()) {
            for (JsonNode element : a) {
                if (JsonEquality.equal(element, b)) {
                    return bool(true);
                }
            }
            return bool(false);
        }
        if (a.isObject()) {
            int longest = 0;
            for (Iterator<String> keys = a.fieldNames(); keys.hasNext(); ) {
                longest = Math.max(longest, keys.next().length());
            }
            return bool(RenderedLength.of(b, longest) <= longest && a.has(Interpolator.render(b)));
        }
        throw Builtins.needs("contains", "text, an array or an object to look in", a);
    }

    /** The rendered elements joined by the rendered {@code sep} (default ","); {@code sep} may be null. */
    static JsonNode join(JsonNode array, JsonNode sep) {
        if (!array.isArray()) {
            throw Builtins.needs("join", "an array", array);
        }
        String separator = sep == null ? DEFAULT_SEPARATOR : Interpolator.render(sep);
        long length = (long) Math.max(0, array.size() - 1) * separator.length();
        for (int i = 0; i < array.size() && length <= BuildLimits.MAX_TEXT; i++) {
            length += RenderedLength.of(array.get(i), BuildLimits.MAX_TEXT);
        }
        BuildLimits.text("join()", length);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < array.size(); i++) {
            if (i > 0) {
                sb.append(separator);
            }
            sb.append(Interpolator.render(array.get(i)));
        }
        return TextNode.valueOf(sb.toString());
    }

    /** {@code x} as an object: itself, or the object held by text. */
    private static JsonNode object(String function, JsonNode x) {
        if (x.isObject()) {
            return x;
        }
        if (x.isTextual()) {
            JsonNode parsed = JsonText.parse(x.textValue()).orElse(null);
            if (parsed != null && parsed.isObject()) {
                return parsed;
            }
            throw new EvaluationException(function + "() needs an object, got text holding "
                    + (parsed == null ? "no JSON object" : Values.typeName(parsed)));
        }
        throw Builtins.needs(function, "an object", x);
    }

    private static JsonNode bool(boolean b) {
        return BooleanNode.valueOf(b);
    }
}
