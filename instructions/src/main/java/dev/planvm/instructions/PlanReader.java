package dev.planvm.instructions;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.JsonPointers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * Phase 1: text to JSON tree, within {@link PlanLimits}. Malformed JSON is reported with its line
 * and column; duplicate keys are refused (a plan whose meaning depends on which duplicate wins is
 * not one to run). A document over the size limit is refused before it is read to the end, and the
 * parser itself stops at the nesting limit, so no input costs more than the limits allow.
 */
final class PlanReader {

    /** Writes plans (and reads trees already bounded): Jackson's limits. */
    static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    private final PlanLimits limits;
    /** Reads a plan file within {@link #limits}: no duplicate key, one value. */
    private final ObjectMapper reader;

    PlanReader(PlanLimits limits) {
        this.limits = limits;
        this.reader = JsonMappers.mapper(
                JsonLimits.PLAN.withMaxDepth(limits.maxDepth()).withMaxBytes(limits.maxBytes()));
    }

    /** The document, or a reason it could not be read. */
    record Read(JsonNode document, Diagnostic problem) {}

    Read read(Path file) {
        try {
            if (Files.isRegularFile(file) && Files.size(file) > limits.maxBytes()) {
                return tooLarge("the plan is " + PlanLimits.count(Files.size(file)) + " bytes");
            }
            try (InputStream in = Files.newInputStream(file)) {
                return readBounded(in);
            }
        } catch (NoSuchFileException e) {
            return problem("file not found");
        } catch (IOException e) {
            return problem(
                    Files.isDirectory(file)
                            ? "is a directory, not a plan file"
                            : "cannot read the file: " + e.getMessage());
        }
    }

    Read read(InputStream in) {
        try {
            return readBounded(in);
        } catch (IOException e) {
            return problem("cannot read the plan: " + e.getMessage());
        }
    }

    /** Reads at most one byte more than the limit, so an endless or huge stream is refused early. */
    private Read readBounded(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes((int) limits.maxBytes() + 1);
        if (bytes.length > limits.maxBytes()) {
            return tooLarge("the plan is more than " + PlanLimits.count(limits.maxBytes()) + " bytes");
        }
        return parse(bytes);
    }

    Read parse(String json) {
        if ((long) json.length() * 3 > limits.maxBytes()) {
            long size = utf8Length(json);
            if (size > limits.maxBytes()) {
                return tooLarge("the plan is " + PlanLimits.count(size) + " bytes");
            }
        }
        return parse(json.getBytes(StandardCharsets.UTF_8));
    }

    Read parse(byte[] bytes) {
        if (bytes.length > limits.maxBytes()) {
            return tooLarge("the plan is " + PlanLimits.count(bytes.length) + " bytes");
        }
        if (isBlank(bytes)) {
            return empty();
        }
        JsonParser parser = null;
        try {
            parser = reader.getFactory().createParser(bytes);
            JsonNode document = reader.readTree(parser);
            // Jackson reads NUL bytes as the end of the input, so "\n\0" holds no JSON value at all
            return document == null || document.isMissingNode() ? empty() : new Read(document, null);
        } catch (StreamConstraintsException e) {
            return problem(overLimit(parser, e));
        } catch (JsonProcessingException e) {
            return problem(malformed(e));
        } catch (IOException e) {
            return problem("cannot read the plan: " + e.getMessage());
        } finally {
            close(parser);
        }
    }

    /**
     * A document that was parsed elsewhere: checked for depth here (iteratively, so a tree of any
     * depth is safe); {@code null} when it is within the limits.
     */
    Diagnostic checkDepth(JsonNode document) {
        String pointer = firstTooDeep(document, limits.maxDepth());
        return pointer == null ? null : Diagnostic.error(null, pointer, nestedTooDeep());
    }

    private String overLimit(JsonParser parser, StreamConstraintsException e) {
        if (parser != null && parser.getParsingContext().getNestingDepth() > limits.maxDepth()) {
            // the context that is one level too deep starts at its opening bracket
            return nestedTooDeep() + where(parser.getParsingContext().startLocation(ContentReference.unknown()));
        }
        String reason = JsonErrors.message(e);
        int from = reason.indexOf(", from `");
        if (from >= 0) {
            reason = reason.substring(0, from) + ")";
        }
        JsonLocation at = e.getLocation() != null ? e.getLocation() : parser == null ? null : parser.currentLocation();
        return "JSON value too large" + where(at) + ": " + reason;
    }

    private String nestedTooDeep() {
        return "JSON nested deeper than " + limits.maxDepth() + " levels";
    }

    private Read tooLarge(String size) {
        return problem(size + "; the limit is " + limits.describeMaxBytes());
    }

    /**
     * The JSON pointer of the first array or object nested deeper than {@code maxDepth} levels (the
     * document itself is level 1), or {@code null}. Walks with an explicit stack, never recursion.
     */
    static String firstTooDeep(JsonNode document, int maxDepth) {
        if (!document.isContainerNode()) {
            return null;
        }
        Deque<Level> path = new ArrayDeque<>();
        path.push(new Level(document));
        while (!path.isEmpty()) {
            Level level = path.peek();
            JsonNode child = level.nextContainer();
            if (child == null) {
                path.pop();
            } else if (path.size() == maxDepth) {
                return pointer(path);
            } else {
                path.push(new Level(child));
            }
        }
        return null;
    }

    private static String pointer(Deque<Level> path) {
        StringBuilder pointer = new StringBuilder();
        for (Iterator<Level> it = path.descendingIterator(); it.hasNext(); ) {
            pointer.append('/').append(JsonPointers.escape(it.next().token));
        }
        return pointer.toString();
    }

    /** One container on the walk's path and where the walk is inside it. */
    private static final class Level {
        private final JsonNode node;
        private final Iterator<Map.Entry<String, JsonNode>> fields;
        private int index = -1;
        private String token;

        Level(JsonNode node) {
            this.node = node;
            this.fields = node.isObject() ? node.properties().iterator() : null;
        }

        /** The next child that is an array or object (its key or index kept in {@link #token}), or null. */
        JsonNode nextContainer() {
            if (fields != null) {
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    if (field.getValue().isContainerNode()) {
                        token = field.getKey();
                        return field.getValue();
                    }
                }
                return null;
            }
            while (++index < node.size()) {
                if (node.get(index).isContainerNode()) {
                    token = Integer.toString(index);
                    return node.get(index);
                }
            }
            return null;
        }
    }

    private static String malformed(JsonProcessingException e) {
        return JsonErrors.malformed(e);
    }

    private static String where(JsonLocation at) {
        return at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    private static long utf8Length(String s) {
        long length = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                length++;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 3;
            }
        }
        return length;
    }

    private static boolean isBlank(byte[] bytes) {
        for (byte b : bytes) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private static void close(JsonParser parser) {
        if (parser != null) {
            try {
                parser.close();
            } catch (IOException ignored) {
                // nothing was written; a failed close loses nothing
            }
        }
    }

    private static Read empty() {
        return problem("the file is empty; a plan is a JSON array of instructions");
    }

    private static Read problem(String message) {
        return new Read(null, Diagnostic.error(null, "", message));
    }
}
