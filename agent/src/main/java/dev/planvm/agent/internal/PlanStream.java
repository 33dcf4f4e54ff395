package dev.planvm.agent.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Reads a plan while it arrives in pieces (an LLM streaming its answer) with Jackson's non-blocking
 * parser, and hands over each instruction as soon as its closing brace has arrived: the elements of
 * the top-level array, or of the {@code plan} array of a top-level object. Text before the first
 * {@code [} or <code>{</code> (a code fence, a sentence) is skipped; anything after the document is
 * ignored. Bounded: at most {@code maxBytes} are read and nesting is limited; malformed JSON stops
 * the stream quietly (the whole answer, checked when it is complete, reports where). Not
 * thread-safe: one answer, fed in order.
 */
public final class PlanStream {

    /** Receives each complete instruction, in document order. */
    @FunctionalInterface
    public interface Sink {
        /**
         * @param instruction the element as parsed
         * @param index       its index in the instructions array
         * @param pointer     its JSON pointer in the document ({@code /3} or {@code /plan/3})
         */
        void instruction(JsonNode instruction, int index, String pointer);
    }

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Sink sink;
    private final long maxBytes;
    private final JsonParser parser;
    private final ByteArrayFeeder feeder;
    private boolean started;
    private boolean stopped;
    private long bytes;
    private String heldSurrogate = "";

    private int depth;
    /** The depth of the instructions array's elements, once it is open; 0 before and after. */
    private int elementDepth;

    private String rootField;
    private int index;
    private final Deque<ContainerNode<?>> building = new ArrayDeque<>();
    private final Deque<String> fields = new ArrayDeque<>();

    /**
     * @param maxDepth the deepest nesting read (a plan's limit; the strict answer form adds two levels per object)
     */
    public PlanStream(Sink sink, long maxBytes, int maxDepth) {
        this.sink = sink;
        this.maxBytes = maxBytes;
        try {
            this.parser = JsonMappers.factory(JsonLimits.PLAN_ANSWER.withMaxDepth(maxDepth))
                    .createNonBlockingByteArrayParser();
        } catch (IOException e) {
            throw new IllegalStateException("cannot create a non-blocking JSON parser", e);
        }
        this.feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
    }

    /** The next piece of the answer. */
    public void feed(String piece) {
        if (stopped || piece.isEmpty()) {
            return;
        }
        String text = heldSurrogate + piece;
        heldSurrogate = "";
        if (Character.isHighSurrogate(text.charAt(text.length() - 1))) {
            heldSurrogate = text.substring(text.length() - 1); // its other half comes with the next piece
            text = text.substring(0, text.length() - 1);
        }
        if (!started) {
            int start = firstBracket(text);
            if (start < 0) {
                return;
            }
            started = true;
            text = text.substring(start);
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        bytes += utf8.length;
        if (bytes > maxBytes) {
            stopped = true;
            return;
        }
        try {
            feeder.feedInput(utf8, 0, utf8.length);
            drain();
        } catch (IOException | RuntimeException malformed) {
            stopped = true;
        }
    }

    /** The answer is complete. */
    public void end() {
        if (!stopped) {
            feeder.endOfInput();
            try {
                drain();
            } catch (IOException | RuntimeException malformed) {
                // reported by the check of the whole answer
            }
        }
        stopped = true;
    }

    private static int firstBracket(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[' || c == '{') {
                return i;
            }
        }
        return -1;
    }

    private void drain() throws IOException {
        for (JsonToken token = parser.nextToken();
                token != null && token != JsonToken.NOT_AVAILABLE;
                token = parser.nextToken()) {
            handle(token);
            if (stopped) {
                return;
            }
        }
    }

    private void handle(JsonToken token) throws IOException {
        switch (token) {
            case START_ARRAY, START_OBJECT -> {
                depth++;
                if (depth == 1 && token == JsonToken.START_ARRAY) {
                    elementDepth = 2;
                } else if (depth == 2
                        && elementDepth == 0
                        && token == JsonToken.START_ARRAY
                        && "plan".equals(rootField)) {
                    elementDepth = 3;
                } else if (elementDepth > 0 && depth >= elementDepth) {
                    open(token == JsonToken.START_OBJECT ? JSON.objectNode() : JSON.arrayNode());
                }
            }
            case END_ARRAY, END_OBJECT -> {
                if (elementDepth > 0 && depth >= elementDepth) {
                    close();
                } else if (depth == elementDepth - 1) {
                    elementDepth = -1; // the instructions array is complete
                }
                depth--;
                if (depth == 0) {
                    stopped = true; // the document is complete
                }
            }
            case FIELD_NAME -> {
                if (depth == 1) {
                    rootField = parser.currentName();
                } else if (!building.isEmpty()) {
                    fields.push(parser.currentName());
                }
            }
            default -> {
                if (elementDepth > 0 && depth + 1 >= elementDepth) {
                    JsonNode value = scalar(token);
                    if (building.isEmpty()) {
                        sink.instruction(value, index, pointer(index));
                        index++;
                    } else {
                        attach(value);
                    }
                }
            }
        }
    }

    private void open(ContainerNode<?> node) {
        if (!building.isEmpty()) {
            attach(node);
        }
        building.push(node);
    }

    private void close() {
        ContainerNode<?> done = building.pop();
        if (building.isEmpty()) {
            sink.instruction(done, index, pointer(index));
            index++;
        }
    }

    private void attach(JsonNode value) {
        ContainerNode<?> parent = building.peek();
        if (parent instanceof ObjectNode object) {
            object.set(fields.pop(), value);
        } else {
            ((ArrayNode) parent).add(value);
        }
    }

    private String pointer(int i) {
        return (elementDepth == 3 ? "/plan/" : "/") + i;
    }

    /** A scalar as Jackson's tree reader would make it (so calls computed from it are the very same). */
    private JsonNode scalar(JsonToken token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> JSON.textNode(parser.getText());
            case VALUE_TRUE -> JSON.booleanNode(true);
            case VALUE_FALSE -> JSON.booleanNode(false);
            case VALUE_NULL -> JSON.nullNode();
            case VALUE_NUMBER_INT ->
                switch (parser.getNumberType()) {
                    case INT -> JSON.numberNode(parser.getIntValue());
                    case LONG -> JSON.numberNode(parser.getLongValue());
                    default -> JSON.numberNode(parser.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT -> JSON.numberNode(parser.getDoubleValue());
            default -> JSON.nullNode();
        };
    }
}
