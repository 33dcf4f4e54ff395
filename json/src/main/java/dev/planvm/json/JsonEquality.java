package dev.planvm.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * The one JSON equality of planvm: strict (types must match: {@code "5"} is not {@code 5}, key
 * order does not matter) with numbers compared by value at any depth ({@code 5 == 5.0 == 5e0}).
 * Whole numbers compare exactly at any size; other numbers compare as JavaScript does, as doubles.
 * The expression language's {@code ==}, cassette matching and regression expectations all use it.
 */
public final class JsonEquality {

    private JsonEquality() {}

    /**
     * Whether {@code a} and {@code b} are equal JSON values, numbers by value. A node is equal to
     * itself at once, so values that share parts (an array holding one large value many times)
     * compare in time proportional to what differs, not to their size written out.
     */
    public static boolean equal(JsonNode a, JsonNode b) {
        if (a == b) {
            return true;
        }
        if (a.isNumber() && b.isNumber()) {
            return compareNumbers(a, b) == 0;
        }
        if (a.getNodeType() != b.getNodeType() || a.size() != b.size()) {
            return false;
        }
        if (a.isArray()) {
            for (int i = 0; i < a.size(); i++) {
                if (!equal(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isObject()) {
            for (Map.Entry<String, JsonNode> field : a.properties()) {
                JsonNode other = b.get(field.getKey());
                if (other == null || !equal(field.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    /** Numeric order of two number nodes: exact for whole numbers, else as doubles. */
    public static int compareNumbers(JsonNode a, JsonNode b) {
        if (a.isIntegralNumber() && b.isIntegralNumber()) {
            return a.canConvertToLong() && b.canConvertToLong()
                    ? Long.compare(a.longValue(), b.longValue())
                    : a.bigIntegerValue().compareTo(b.bigIntegerValue());
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        return x < y ? -1 : (x > y ? 1 : 0);
    }
}
