package dev.planvm.vm.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.expr.ValueSize;
import dev.planvm.vm.run.RunLimits;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Keeps every value the trace holds writable: a value larger than one variable may hold, or nested
 * deeper than one variable may be (at most {@link #MAX_DEPTH} levels, well under the 1,000 levels
 * Jackson writes and reads), is replaced by a marker saying what it was:
 * <pre>{@code
 * {"truncated": "text of 6,000,000 characters", "size": 6000000}
 * {"truncated": "an array nested 3,000 levels deep", "depth": 3000, "size": 3001}
 * {"truncated": "an object of size 7,340,032 (characters of text and keys, plus one per other value)", "size": 7340032}
 * }</pre>
 * The marker quotes nothing of the value: a cut could keep the start of a secret that redaction,
 * which replaces whole secret values, would then not recognise. Measuring walks values with an
 * explicit stack, so a value of any depth is safe.
 */
final class TraceValues {

    /** The deepest value the trace keeps, whatever the run limits allow: documents stay under Jackson's 1,000 levels. */
    static final int MAX_DEPTH = 900;

    private final long maxSize;
    private final int maxDepth;

    TraceValues(RunLimits limits) {
        this.maxSize = limits.maxValueSize();
        this.maxDepth = Math.min(limits.maxValueDepth(), MAX_DEPTH);
    }

    /** {@code value}, or a marker when it is too large or too deep for the trace. */
    JsonNode bound(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isTextual()) {
            String text = value.textValue();
            return text.length() > maxSize
                    ? marker("text of " + count(text.length()) + " characters", text.length(), null)
                    : value;
        }
        if (!value.isContainerNode()) {
            return value;
        }
        ValueSize measured = ValueSize.of(value, maxSize, maxDepth);
        if (measured.size() <= maxSize && measured.depth() <= maxDepth) {
            return value;
        }
        ValueSize exact = ValueSize.of(value, Long.MAX_VALUE, Integer.MAX_VALUE);
        String kind = value.isArray() ? "an array" : "an object";
        if (exact.depth() > maxDepth) {
            return marker(kind + " nested " + count(exact.depth()) + " levels deep", exact.size(), exact.depth());
        }
        return marker(
                kind + " of size " + count(exact.size()) + " (characters of text and keys, plus one per other value)",
                exact.size(),
                null);
    }

    /**
     * {@code object} with each field's value {@linkplain #bound bounded}: the same object when none
     * changes, else a shallow copy (a deep copy of a deep value would itself overflow the stack).
     */
    ObjectNode boundFields(ObjectNode object) {
        Map<String, JsonNode> bounded = new LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            JsonNode value = bound(field.getValue());
            changed |= value != field.getValue();
            bounded.put(field.getKey(), value);
        }
        if (!changed) {
            return object;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        bounded.forEach(copy::set);
        return copy;
    }

    /** {@code object} with field {@code name} set to {@code value}: the same object when it already is, else a shallow copy. */
    ObjectNode boundFields(ObjectNode object, String name, JsonNode value) {
        if (object.get(name) == value) {
            return object;
        }
        ObjectNode copy = JsonNodeFactory.instance.objectNode();
        object.properties()
                .forEach(field -> copy.set(field.getKey(), field.getKey().equals(name) ? value : field.getValue()));
        return copy;
    }

    private static ObjectNode marker(String what, long size, Integer depth) {
        ObjectNode marker = JsonNodeFactory.instance.objectNode().put("truncated", what);
        if (depth != null) {
            marker.put("depth", depth);
        }
        return marker.put("size", size);
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
