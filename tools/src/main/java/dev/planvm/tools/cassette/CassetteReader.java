package dev.planvm.tools.cassette;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * Reads a cassette file's JSON strictly and within bounds: the size is checked before reading (and
 * no more than the limit is ever read), duplicate keys and text after the document are refused,
 * and every problem names the file, line and column.
 */
final class CassetteReader {

    private CassetteReader() {}

    static JsonNode read(Path file, long maxBytes) {
        byte[] bytes;
        try {
            if (Files.isRegularFile(file) && Files.size(file) > maxBytes) {
                throw new CassetteException(file + ": the cassette is " + count(Files.size(file))
                        + " bytes; the limit is " + bytes(maxBytes));
            }
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            }
        } catch (NoSuchFileException e) {
            throw new CassetteException(file + ": cassette not found");
        } catch (IOException e) {
            throw new CassetteException(file + ": cannot read the cassette: " + e.getMessage(), e);
        }
        if (bytes.length > maxBytes) {
            throw new CassetteException(
                    file + ": the cassette is more than " + bytes(maxBytes) + "; the limit is " + bytes(maxBytes));
        }
        return parse((Object) file, bytes, maxBytes);
    }

    /** Parses cassette bytes already read; {@code file} names them in messages. */
    static JsonNode parse(Object file, byte[] bytes, long maxBytes) {
        JsonFactory factory = JsonMappers.factory(
                JsonLimits.CASSETTE.withMaxStringLength((int) Math.min(Integer.MAX_VALUE - 8, maxBytes)));
        try (JsonParser parser = factory.createParser(bytes)) {
            JsonNode document = tree(file, parser);
            if (document != null && parser.nextToken() != null) {
                throw new CassetteException(file + ": " + where(parser.currentTokenLocation())
                        + "text after the end of the cassette's JSON document");
            }
            return document;
        } catch (StreamConstraintsException e) {
            throw new CassetteException(file + ": " + where(e.getLocation()) + "JSON value too large or too deep: "
                    + JsonErrors.message(e));
        } catch (JsonProcessingException e) {
            throw new CassetteException(file + ": " + JsonErrors.malformed(e));
        } catch (IOException e) {
            throw new CassetteException(file + ": cannot read the cassette: " + e.getMessage(), e);
        }
    }

    /**
     * The first JSON value of the parser as a tree, built here (iteratively: any depth the parser
     * allows is safe) so that a duplicate key is reported where the key starts.
     */
    private static JsonNode tree(Object file, JsonParser parser) throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        Deque<ContainerNode<?>> open = new ArrayDeque<>();
        String name = null;
        for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
            JsonNode node;
            switch (token) {
                case FIELD_NAME -> {
                    name = parser.currentName();
                    if (open.peek().has(name)) {
                        throw new CassetteException(
                                file + ": " + where(parser.currentTokenLocation()) + "duplicate key '" + name + "'");
                    }
                    continue;
                }
                case END_OBJECT, END_ARRAY -> {
                    ContainerNode<?> closed = open.pop();
                    if (open.isEmpty()) {
                        return closed;
                    }
                    continue;
                }
                case START_OBJECT -> node = nodes.objectNode();
                case START_ARRAY -> node = nodes.arrayNode();
                case VALUE_STRING -> node = nodes.textNode(parser.getText());
                case VALUE_NUMBER_INT ->
                    node = switch (parser.getNumberType()) {
                        case INT -> nodes.numberNode(parser.getIntValue());
                        case LONG -> nodes.numberNode(parser.getLongValue());
                        default -> nodes.numberNode(parser.getBigIntegerValue());
                    };
                case VALUE_NUMBER_FLOAT -> node = nodes.numberNode(parser.getDoubleValue());
                case VALUE_TRUE -> node = nodes.booleanNode(true);
                case VALUE_FALSE -> node = nodes.booleanNode(false);
                default -> node = nodes.nullNode();
            }
            ContainerNode<?> parent = open.peek();
            if (parent instanceof ObjectNode object) {
                object.set(name, node);
            } else if (parent instanceof ArrayNode array) {
                array.add(node);
            } else if (!node.isContainerNode()) {
                return node; // a document that is one scalar
            }
            if (node instanceof ContainerNode<?> container) {
                open.push(container);
            }
        }
        return null;
    }

    /** {@code "line 3, column 5: "}, or nothing when the location is unknown. */
    private static String where(JsonLocation at) {
        return at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr() + ": ";
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static String bytes(long n) {
        return n >= 1 << 20 && n % (1 << 20) == 0 ? n / (1 << 20) + " MiB" : count(n) + " bytes";
    }
}
