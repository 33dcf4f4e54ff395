package dev.planvm.integrations.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.util.Optional;
import java.util.regex.Pattern;

/** The JSON reader every integration uses on what servers send: bounded depth, no duplicate keys, nothing trailing. */
public final class Json {

    /** How deep a document from a server may nest. */
    public static final int MAX_DEPTH = JsonLimits.TOOL_SERVER.maxDepth();

    /** Tool names a plan can call (the plan schema's pattern). */
    public static final Pattern TOOL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*(:[A-Za-z_][A-Za-z0-9_.-]*)?");
    /** One part of a tool name: an MCP server's name, a tool's own name. */
    public static final Pattern NAME_PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]*");

    public static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.TOOL_SERVER);

    private Json() {}

    /** {@code text} as JSON when it is a JSON document (any value), else empty. */
    public static Optional<JsonNode> parse(String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (Exception notJson) {
            return Optional.empty();
        }
    }

    /** "an object", "a string", ... for messages. */
    public static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        return switch (node.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }

    /** {@code text} cut to {@code max} characters, on one line, for messages. */
    public static String shorten(String text, int max) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max) + "…";
    }
}
