package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The length of {@link Interpolator#render} of a value, computed without rendering it: text as is,
 * numbers JavaScript-style, everything else as compact JSON ({@link CompactJson}, escapes
 * included). Walks containers with an explicit stack and stops once the length passes a limit, so
 * the interpolator can refuse a string before building it.
 */
final class RenderedLength {

    private RenderedLength() {}

    /** The exact rendered length of {@code value}, or some figure above {@code limit} once it passes it. */
    static long of(JsonNode value, long limit) {
        if (value.isTextual()) {
            return value.textValue().length();
        }
        if (!value.isContainerNode()) {
            return Interpolator.render(value).length();
        }
        long length = 0;
        Deque<JsonNode> stack = new ArrayDeque<>();
        stack.push(value);
        while (!stack.isEmpty() && length <= limit) {
            JsonNode node = stack.pop();
            if (node.isContainerNode()) {
                length += brackets(node, stack);
            } else {
                length += json(node);
            }
        }
        return length;
    }

    /** The brackets, separators and quoted keys of a container; its values are pushed to be counted. */
    private static long brackets(JsonNode container, Deque<JsonNode> stack) {
        long length = 2 + Math.max(0, container.size() - 1);
        if (container.isObject()) {
            for (Map.Entry<String, JsonNode> field : container.properties()) {
                length += quoted(field.getKey()) + 1;
                stack.push(field.getValue());
            }
        } else {
            for (int i = container.size() - 1; i >= 0; i--) {
                stack.push(container.get(i));
            }
        }
        return length;
    }

    /** A scalar as {@link CompactJson} writes it. */
    private static long json(JsonNode scalar) {
        if (scalar.isTextual()) {
            return quoted(scalar.textValue());
        }
        if (scalar.isNumber() || scalar.isBoolean() || scalar.isNull() || scalar.isMissingNode()) {
            return Interpolator.render(scalar).length();
        }
        return quoted(scalar.asText());
    }

    /** Text in double quotes with {@link CompactJson}'s escapes. */
    private static long quoted(String s) {
        long length = 2 + s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f') {
                length += 1;
            } else if (c < 0x20) {
                length += 5;
            }
        }
        return length;
    }
}
