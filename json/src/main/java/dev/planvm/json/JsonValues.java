package dev.planvm.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * refuses them where they are made; {@link #problem(JsonNode)} finds the first one.
 */
public final class JsonValues {

    /**
     * The most JSON tokens {@link #READER} reads from one text (a value is one or two tokens), so
     * that a short text cannot become millions of nodes: 2,000,000.
     */
    public static final int MAX_TOKENS = 2_000_000;

    /**
     * Reads one JSON value from untrusted text: nothing may follow it, at most {@link #MAX_TOKENS}
     * tokens and Jackson's default nesting limit (1,000 levels). Thread-safe.
     */
    public static final ObjectReader READER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxTokenCount(MAX_TOKENS).build())
            .build())
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final int SHOWN = 24;

    private JsonValues() {
    }

    /**
     * The first part of {@code value} that JSON cannot hold, as a phrase with its JSON pointer
     * ({@code "/0 is the number Infinity, which JSON cannot hold"}), or empty when there is none.
     * Walks containers with an explicit stack: any depth is safe.
     */
    public static Optional<String> problem(JsonNode value) {
        Deque<Object[]> stack = new ArrayDeque<>();
        stack.push(new Object[] {"", value});
        while (!stack.isEmpty()) {
            Object[] next = stack.pop();
            String pointer = (String) next[0];
            JsonNode node = (JsonNode) next[1];
            String problem = own(node);
            if (problem != null) {
                return Optional.of(where(pointer) + problem);
            }
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    int lone = loneSurrogate(field.getKey());
                    String child = pointer + "/" + JsonPointers.escape(field.getKey());
                    if (lone >= 0) {
                        return Optional.of("the key at " + child + " has " + surrogate(field.getKey(), lone));
                    }
                    stack.push(new Object[] {child, field.getValue()});
                }
            } else if (node.isArray()) {
                for (int i = node.size() - 1; i >= 0; i--) {
                    stack.push(new Object[] {pointer + "/" + i, node.get(i)});
                }
            }
        }
        return Optional.empty();
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
            return lone < 0 ? null : "is text with " + surrogate(node.textValue(), lone);
        }
        if (node.isFloatingPointNumber()) {
            double d = node.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                String shown = node.isBigDecimal() ? node.decimalValue().toString() : Double.toString(d);
                return "is the number " + shorten(shown) + ", which JSON cannot hold";
            }
        }
        return null;
    }

    private static String surrogate(String s, int at) {
        return "a lone surrogate \\u" + Integer.toHexString(s.charAt(at)).toUpperCase(Locale.ROOT)
                + " at character " + at + ", which JSON text cannot hold";
    }

    private static String where(String pointer) {
        return pointer.isEmpty() ? "the value " : pointer + " ";
    }

    private static String shorten(String s) {
        return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "...";
    }
}
