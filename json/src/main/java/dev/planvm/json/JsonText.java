package dev.planvm.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * Finds the JSON object or array held by a piece of text, typically an LLM answer.
 *
 * <p>The search, in order:
 * <ol>
 *   <li>the whole text, trimmed, is a JSON object or array;</li>
 *   <li>else the content of the first <code>```json</code> fence (or a fence with no language)
 *       that is a JSON object or array;</li>
 *   <li>else the first balanced <code>{...}</code> in the text that parses as an object — or the
 *       array around it when that object sits inside a balanced <code>[...]</code> that parses —
 *       and, when the text holds no object, the first balanced <code>[...]</code> that parses.
 *       Brackets inside JSON strings (with their escapes) do not count.</li>
 * </ol>
 * A JSON scalar is never found: the text {@code 42} stays text. Nothing here throws; every method is
 * thread-safe.
 */
public final class JsonText {

    private static final ObjectReader READER = new ObjectMapper()
            .reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final String FENCE = "```";

    private JsonText() {
    }

    /** The JSON object or array held by {@code text}, or empty when it holds none. */
    public static Optional<JsonNode> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        JsonNode whole = container(text.strip());
        if (whole != null) {
            return Optional.of(whole);
        }
        JsonNode fenced = fenced(text, false);
        if (fenced != null) {
            return Optional.of(fenced);
        }
        return Optional.ofNullable(scan(text));
    }

    /** The JSON object held by {@code text} (whole, first in a fence, or first in prose), or empty. */
    public static Optional<ObjectNode> findObject(String text) {
        if (text == null) {
            return Optional.empty();
        }
        JsonNode whole = container(text.strip());
        if (whole instanceof ObjectNode) {
            return Optional.of((ObjectNode) whole);
        }
        JsonNode fenced = fenced(text, true);
        if (fenced != null) {
            return Optional.of((ObjectNode) fenced);
        }
        Candidate object = firstBalanced(text, '{', '}', 0);
        return Optional.ofNullable(object == null ? null : (ObjectNode) object.value());
    }

    /** {@code s} parsed as a JSON object or array, or null when it is not exactly one of those. */
    private static JsonNode container(String s) {
        if (s.isEmpty()) {
            return null;
        }
        char first = s.charAt(0);
        char last = s.charAt(s.length() - 1);
        boolean looksLikeObject = first == '{' && last == '}';
        boolean looksLikeArray = first == '[' && last == ']';
        if (!looksLikeObject && !looksLikeArray) {
            return null;
        }
        try {
            JsonNode node = READER.readTree(s);
            return node != null && node.isContainerNode() ? node : null;
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    /** The first {@code json} or unlabelled fence whose content is a container (an object if asked). */
    private static JsonNode fenced(String text, boolean objectOnly) {
        int open = text.indexOf(FENCE);
        while (open >= 0) {
            int lineEnd = text.indexOf('\n', open + FENCE.length());
            if (lineEnd < 0) {
                return null;
            }
            int close = text.indexOf(FENCE, lineEnd + 1);
            if (close < 0) {
                return null;
            }
            String language = text.substring(open + FENCE.length(), lineEnd).strip();
            if (language.isEmpty() || language.equalsIgnoreCase("json")) {
                JsonNode node = container(text.substring(lineEnd + 1, close).strip());
                if (node != null && (!objectOnly || node.isObject())) {
                    return node;
                }
            }
            open = text.indexOf(FENCE, close + FENCE.length());
        }
        return null;
    }

    /** Step (c): the first object (or an array enclosing it), else the first array. */
    private static JsonNode scan(String text) {
        Candidate object = firstBalanced(text, '{', '}', 0);
        if (object == null) {
            Candidate array = firstBalanced(text, '[', ']', 0);
            return array == null ? null : array.value();
        }
        int from = 0;
        while (true) {
            Candidate array = firstBalanced(text, '[', ']', from);
            if (array == null || array.start() > object.start()) {
                return object.value();
            }
            if (array.end() > object.start()) {
                return array.value();
            }
            from = array.start() + 1;
        }
    }

    /** A parsed balanced value and its span {@code [start, end)} in the text. */
    private record Candidate(JsonNode value, int start, int end) {
    }

    /** The first balanced {@code open...close} span from {@code from} that parses, or null. */
    private static Candidate firstBalanced(String text, char open, char close, int from) {
        int start = text.indexOf(open, from);
        while (start >= 0) {
            int end = matchingClose(text, start, open, close);
            if (end > 0) {
                JsonNode node = container(text.substring(start, end));
                if (node != null) {
                    return new Candidate(node, start, end);
                }
            }
            start = text.indexOf(open, start + 1);
        }
        return null;
    }

    /**
     * The index just after the bracket closing the one at {@code start}, counting only brackets
     * outside JSON strings; -1 when the text ends first.
     */
    private static int matchingClose(String text, int start, char open, char close) {
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == open) {
                depth++;
            } else if (c == close) {
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            }
        }
        return -1;
    }
}
