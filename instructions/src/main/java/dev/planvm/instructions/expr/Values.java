package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;

/** Truthiness, equality, ordering and type names of JSON values, JavaScript-like. */
final class Values {

    private static final int PREVIEW_CHARS = 40;

    private Values() {}

    /** JS truthiness: false, null, 0, NaN and "" are falsy; everything else is truthy. */
    static boolean truthy(JsonNode v) {
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        if (v.isTextual()) {
            return !v.textValue().isEmpty();
        }
        if (v.isNumber()) {
            double d = v.doubleValue();
            return d != 0 && !Double.isNaN(d);
        }
        return !v.isNull() && !v.isMissingNode();
    }

    /** The kind of value with its article, for messages: "text", "a number", "an object", "null". */
    static String typeName(JsonNode v) {
        if (v.isTextual()) {
            return "text";
        }
        if (v.isNumber()) {
            return "a number";
        }
        if (v.isBoolean()) {
            return "a boolean";
        }
        if (v.isObject()) {
            return "an object";
        }
        if (v.isArray()) {
            return "an array";
        }
        if (v.isNull() || v.isMissingNode()) {
            return "null";
        }
        return "binary data";
    }

    /** The kind of value and, for scalars, the value itself: "text 'abc'", "the number 5". */
    static String describe(JsonNode v) {
        if (v.isTextual()) {
            return "text " + quote(v.textValue());
        }
        if (v.isNumber()) {
            return "the number " + JsNumbers.render(v);
        }
        if (v.isBoolean()) {
            return "the boolean " + v.booleanValue();
        }
        return typeName(v);
    }

    /** {@code s} in single quotes, shortened to a readable length, for messages. */
    static String quote(String s) {
        String shown = s.length() <= PREVIEW_CHARS ? s : s.substring(0, PREVIEW_CHARS) + "...";
        return "'" + shown.replace("\n", "\\n") + "'";
    }

    /** The first {@code limit} keys of an object joined with ", ", and how many more there are. */
    static String keyList(JsonNode object, int limit) {
        StringBuilder sb = new StringBuilder();
        Iterator<String> names = object.fieldNames();
        int shown = 0;
        while (names.hasNext() && shown < limit) {
            if (shown > 0) {
                sb.append(", ");
            }
            sb.append(names.next());
            shown++;
        }
        if (object.size() > shown) {
            sb.append(" and ").append(object.size() - shown).append(" more");
        }
        return sb.toString();
    }
}
