package dev.planvm.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Values that JSON can hold, and reading untrusted JSON text into them within bounds.
 *
 * <p>A Jackson tree can hold what JSON text written as UTF-8 cannot carry back: a number that
 * overflowed to {@code Infinity} or is {@code NaN} (from {@code 1e400}, or a tool), a decimal
 * beyond a double's range, and text with a lone UTF-16 surrogate (from a {@code "\ud800"} escape,
 * or a tool). Written and read again (a durable run's store, a trace, a cassette) such a value
 * comes back different — {@code "Infinity"} as text, {@code ?} for the surrogate — so planvm
 * refuses them where they are made; {@link #find(JsonNode)} finds the first one.
 */
public final class JsonValues {

    /**
     * The most JSON tokens {@link #READER} reads from one text (a value is one or two tokens), so
     * that a short text cannot become millions of nodes: 2,000,000.
     */
    public static final int MAX_TOKENS = (int) JsonLimits.LLM_ANSWER.maxTokens();

    /**
     * Reads one JSON value from untrusted text: nothing may follow it, at most {@link #MAX_TOKENS}
     * tokens and Jackson's default nesting limit (1,000 levels). Thread-safe.
     */
    public static final ObjectReader READER =
            JsonMappers.mapper(JsonLimits.LLM_ANSWER).reader();

    private static final int SHOWN = 24;

    private JsonValues() {}

    /**
     * A part of a value that JSON cannot hold.
     *
     * @param pointer     where it is (RFC 6901; {@code ""} for the value itself)
     * @param description what it is, as a phrase: {@code "the number Infinity"},
     *                    {@code "text with a lone surrogate \\uD800 at character 3"}
     */
    public record Problem(String pointer, String description) {

        /** {@code /0 is the number Infinity, which JSON cannot hold}. */
        @Override
        public String toString() {
            return (pointer.isEmpty() ? "the value" : pointer) + " is " + description + ", which JSON cannot hold";
        }
    }

    /**
     * The first part of {@code value} that JSON cannot hold, or empty when there is none. Walks
     * containers with an explicit stack: any depth is safe.
     */
    public static Optional<Problem> find(JsonNode value) {
        if (!value.isContainerNode()) {
            String problem = own(value);
            return problem == null ? Optional.empty() : Optional.of(new Problem("", problem));
        }
        Deque<Pending> stack = new ArrayDeque<>();
        stack.push(new Pending(null, null, value));
        while (!stack.isEmpty()) {
            Pending next = stack.pop();
            JsonNode node = next.node();
            String problem = own(node);
            if (problem != null) {
                return Optional.of(new Problem(next.pointer(), problem));
            }
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    int lone = loneSurrogate(field.getKey());
                    if (lone >= 0) {
                        return Optional.of(new Problem(
                                next.pointer(), "an object with a key that has " + surrogate(field.getKey(), lone)));
                    }
                    if (field.getValue().isContainerNode() || own(field.getValue()) != null) {
                        stack.push(new Pending(next, field.getKey(), field.getValue()));
                    }
                }
            } else if (node.isArray()) {
                for (int i = node.size() - 1; i >= 0; i--) {
                    JsonNode element = node.get(i);
                    if (element.isContainerNode() || own(element) != null) {
                        stack.push(new Pending(next, Integer.toString(i), element));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** A value still to look at: its parent and its key or index there (the pointer is built only when needed). */
    private record Pending(Pending parent, String token, JsonNode node) {

        String pointer() {
            Deque<String> tokens = new ArrayDeque<>();
            for (Pending at = this; at.parent() != null; at = at.parent()) {
                tokens.push(at.token());
            }
            StringBuilder pointer = new StringBuilder();
            tokens.forEach(token -> pointer.append('/').append(JsonPointers.escape(token)));
            return pointer.toString();
        }
    }

    /** {@link #find} as a sentence: {@code "/0 is the number Infinity, which JSON cannot hold"}. */
    public static Optional<String> problem(JsonNode value) {
        return find(value).map(Problem::toString);
    }

    /** Whether JSON can hold every part of {@code value}. */
    public static boolean holdable(JsonNode value) {
        return problem(value).isEmpty();
    }

    /** The index of the first lone surrogate in {@code s}, or -1 when every surrogate is paired. */
    public static int loneSurrogate(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return i;
            }
        }
        return -1;
    }

    private static String own(JsonNode node) {
        if (node.isTextual()) {
            int lone = loneSurrogate(node.textValue());
            return lone < 0 ? null : "text with " + surrogate(node.textValue(), lone);
        }
        if (node.isFloatingPointNumber()) {
            double d = node.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                String shown = node.isBigDecimal() ? node.decimalValue().toString() : Double.toString(d);
                return "the number " + shorten(shown);
            }
        }
        return null;
    }

    private static String surrogate(String s, int at) {
        return "a lone surrogate \\u" + Integer.toHexString(s.charAt(at)).toUpperCase(Locale.ROOT) + " at character "
                + at;
    }

    private static String shorten(String s) {
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "...";
    }
}
