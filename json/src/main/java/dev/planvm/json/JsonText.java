package dev.planvm.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
 *   <li>else the first object in the text — the first <code>{</code> from which a JSON object
 *       parses — or the array around it when that object sits inside an array that parses (the
 *       first such array); and, when the text holds no object, the first array that parses.
 *       Brackets inside JSON strings (with their escapes) do not count.</li>
 * </ol>
 * A JSON scalar is never found: the text {@code 42} stays text. Only values JSON can hold count
 * ({@link JsonValues}): an object with a number beyond a double's range or a lone surrogate is
 * passed over like malformed JSON, and so is one of more than {@link JsonValues#MAX_TOKENS} tokens
 * or 1,000 levels.
 *
 * <p>Every method takes time linear in the text, whatever it holds: step 3 is one pass of
 * {@link JsonScanner} (two when an object must be checked for an enclosing array), and only the
 * value found is handed to Jackson. Nothing here throws; every method is thread-safe.
 */
public final class JsonText {

    private static final String FENCE = "```";

    private JsonText() {}

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
        First first = First.object(text);
        return Optional.ofNullable((ObjectNode) first.value(text));
    }

    /** {@code s} parsed as a JSON object or array JSON can hold, or null when it is not exactly one of those. */
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
            JsonNode node = JsonValues.READER.readTree(s);
            return node != null && node.isContainerNode() && JsonValues.holdable(node) ? node : null;
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

    /** Step (c): the first object (or the first array enclosing it), else the first array. */
    private static JsonNode scan(String text) {
        First first = First.object(text);
        if (first.start < 0) {
            return first.arrayStart < 0 ? null : container(text.substring(first.arrayStart, first.arrayEnd));
        }
        if (text.lastIndexOf('[', first.start) >= 0) {
            First around = First.arrayAround(text, first.start);
            if (around.arrayStart >= 0) {
                return container(text.substring(around.arrayStart, around.arrayEnd));
            }
        }
        return first.value(text);
    }

    /** What a scan found: the first object's span and the first array's, each -1 when none. */
    private static final class First implements JsonScanner.Sink {
        private int start = -1;
        private int end;
        private int arrayStart = -1;
        private int arrayEnd;
        /** For {@link #arrayAround}: only arrays spanning this offset count, and no object does. */
        private final int around;

        private First(int around) {
            this.around = around;
        }

        /** The first object, and the first array too when the text holds no object. */
        static First object(String text) {
            First first = new First(-1);
            JsonScanner.scan(text, first);
            return first;
        }

        /** The first array whose span encloses offset {@code at}. */
        static First arrayAround(String text, int at) {
            First first = new First(at);
            JsonScanner.scan(text, first);
            return first;
        }

        @Override
        public void closed(boolean object, int from, int to) {
            if (around >= 0) {
                if (!object && from < around && to > around && (arrayStart < 0 || from < arrayStart)) {
                    arrayStart = from;
                    arrayEnd = to;
                }
            } else if (object && (start < 0 || from < start)) {
                start = from;
                end = to;
            } else if (!object && (arrayStart < 0 || from < arrayStart)) {
                arrayStart = from;
                arrayEnd = to;
            }
        }

        @Override
        public boolean done(int position, int earliestOpen) {
            if (around >= 0) {
                return position > around && (earliestOpen >= around || arrayStart >= 0 && earliestOpen > arrayStart);
            }
            return start >= 0 && earliestOpen > start;
        }

        /** The object found, read by Jackson; null when there is none (or Jackson's token limit refuses it). */
        JsonNode value(String text) {
            return start < 0 ? null : container(text.substring(start, end));
        }
    }
}
