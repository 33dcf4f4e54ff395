package dev.planvm.vm.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/** Truthiness, equality, ordering and type names of JSON values, JavaScript-like. */
final class Values {

    private static final int PREVIEW_CHARS = 40;

    private Values() {
    }

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

    /** Strict JSON equality, numbers compared by value at any depth ({@code 5 == 5.0}). */
    static boolean equal(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return compareNumbers(a, b) == 0;
        }
        if (a.getNodeType() != b.getNodeType()) {
            return false;
        }
        if (a.isArray()) {
            return equalArrays(a, b);
        }
        if (a.isObject()) {
            return equalObjects(a, b);
        }
        return a.equals(b);
    }

    private static boolean equalArrays(JsonNode a, JsonNode b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!equal(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean equalObjects(JsonNode a, JsonNode b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<String, JsonNode> field : a.properties()) {
            JsonNode other = b.get(field.getKey());
            if (other == null || !equal(field.getValue(), other)) {
                return false;
            }
        }
        return true;
    }

    /** Numeric order of two number nodes: exact for whole numbers that fit a long, else as doubles. */
    static int compareNumbers(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber() && a.canConvertToLong() && b.canConvertToLong()) {
            return Long.compare(a.longValue(), b.longValue());
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        return x < y ? -1 : (x > y ? 1 : 0);
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
