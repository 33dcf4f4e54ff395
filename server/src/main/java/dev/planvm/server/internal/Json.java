package dev.planvm.server.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;

/**
 * The one JSON reader and writer of the server: strict (no duplicate keys, nothing after the
 * document) and bounded (depth, number and string lengths), so a hostile request body is refused with
 * a located sentence instead of exhausting the machine.
 */
public final class Json {

    /** The deepest nesting a request may have (a plan, its inputs, a cassette). */
    public static final int MAX_DEPTH = JsonLimits.HTTP_BODY.maxDepth();

    public static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.HTTP_BODY);

    /** Reads a request body: decimals exactly (a plan's numbers pass through unchanged). */
    private static final ObjectReader READER = MAPPER.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private Json() {}

    /** A request body that is not one well-formed JSON document; the message says where and why. */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        public Malformed(String message) {
            super(message);
        }
    }

    /** Parses one JSON document; an empty body is {@link Malformed} too. */
    public static JsonNode read(byte[] body) throws Malformed {
        if (body.length == 0) {
            throw new Malformed("the request body is empty; a JSON object was expected");
        }
        try {
            JsonNode node = READER.readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new Malformed("the request body is empty; a JSON object was expected");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new Malformed("the request body is not valid JSON: " + located(e));
        } catch (IOException e) {
            throw new Malformed("the request body cannot be read: " + e.getMessage());
        }
    }

    /** {@code line 3, column 7: Unexpected character ...}, without Jackson's source excerpt. */
    static String located(JsonProcessingException e) {
        JsonLocation where = e.getLocation();
        String message = JsonErrors.message(e);
        return where == null || where.getLineNr() < 1
                ? message
                : "line " + where.getLineNr() + ", column " + where.getColumnNr() + ": " + message;
    }

    /** Compact JSON text of {@code node}. */
    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }
}
