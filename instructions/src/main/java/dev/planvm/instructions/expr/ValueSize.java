package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * The size and depth of a JSON value as planvm's run limits count them, measured cheaply and
 * safely.
 *
 * <p><b>Size</b>: the characters of every text value and object key, plus one for every other
 * value (number, boolean, null, array, object). Text {@code "abc"} is 3; {@code [1, "ab"]} is
 * 1 + 1 + 2 = 4; {@code {"k": null}} is 1 + 1 + 1 = 3. It tracks memory and the length of the
 * value written as JSON closely enough for a limit, and text costs nothing to measure.
 *
 * <p><b>Depth</b>: how many arrays and objects are nested: a scalar is 0, {@code []} is 1,
 * {@code [{"a": []}]} is 3.
 *
 * <p>Containers are walked with an explicit stack (a value of any depth is safe) and the walk stops
 * as soon as the size passes {@code maxSize} or the depth passes {@code maxDepth}: then
 * {@link #size()} or {@link #depth()} is only "more than the limit", not the whole figure.
 *
 * @param size  the size, exact unless it is over the limit it was measured against
 * @param depth the depth, exact unless it is over the limit it was measured against
 */
public record ValueSize(long size, int depth) {

    /** Measures {@code value}, stopping once it is larger than {@code maxSize} or deeper than {@code maxDepth}. */
    public static ValueSize of(JsonNode value, long maxSize, int maxDepth) {
        long size = own(value);
        if (!value.isContainerNode()) {
            return new ValueSize(size, 0);
        }
        int deepest = 0;
        Deque<Pending> stack = new ArrayDeque<>();
        stack.push(new Pending(value, 1));
        while (!stack.isEmpty() && size <= maxSize) {
            Pending next = stack.pop();
            deepest = Math.max(deepest, next.depth());
            if (deepest > maxDepth) {
                break;
            }
            size = next.node().isObject() ? fields(next, stack, size, maxSize) : elements(next, stack, size, maxSize);
        }
        return new ValueSize(size, deepest);
    }

    /** A container still to walk, and its depth. */
    private record Pending(JsonNode node, int depth) {}

    private static long fields(Pending object, Deque<Pending> stack, long size, long maxSize) {
        for (Map.Entry<String, JsonNode> field : object.node().properties()) {
            size += field.getKey().length() + own(field.getValue());
            push(field.getValue(), object.depth(), stack);
            if (size > maxSize) {
                break;
            }
        }
        return size;
    }

    private static long elements(Pending array, Deque<Pending> stack, long size, long maxSize) {
        for (int i = 0; i < array.node().size() && size <= maxSize; i++) {
            JsonNode element = array.node().get(i);
            size += own(element);
            push(element, array.depth(), stack);
        }
        return size;
    }

    private static void push(JsonNode child, int parentDepth, Deque<Pending> stack) {
        if (child.isContainerNode()) {
            stack.push(new Pending(child, parentDepth + 1));
        }
    }

    private static long own(JsonNode node) {
        return node.isTextual() ? node.textValue().length() : 1;
    }
}
