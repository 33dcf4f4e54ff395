package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/**
 * A legacy StackVM shape that runs as a tool call: an instruction whose {@code type} is the name of
 * the tool it calls while its parameters are those of a {@code calling} ({@code tool_name} or
 * {@code tool} naming that same tool, {@code tool_params} or {@code params}, {@code output_vars}).
 * StackVM runs such instructions as calls; planvm loads them as {@link Calling}s, checked like any
 * other, with a warning that shows the canonical form. Any other use of a tool name as a type stays
 * an error.
 */
final class LegacyToolType {

    private LegacyToolType() {}

    /**
     * The instruction rewritten with {@code "type": "calling"} when it has the legacy shape, else
     * {@code null}. A built-in or custom type never has it.
     */
    static ObjectNode asCalling(JsonNode node, Set<String> customTypes) {
        String tool = legacyTool(node, customTypes);
        if (tool == null) {
            return null;
        }
        ObjectNode calling = ((ObjectNode) node).deepCopy();
        calling.put("type", "calling");
        return calling;
    }

    /** The warning for an instruction {@link #asCalling} rewrote. */
    static Diagnostic warning(JsonNode node, String pointer, Integer seqNo) {
        JsonNode parameters = node.path("parameters");
        String toolKey = parameters.has("tool_name") ? "tool_name" : "tool";
        String tool = parameters.path(toolKey).asText();
        StringBuilder canonical = new StringBuilder("{\"type\": \"calling\", \"parameters\": {\"")
                .append(toolKey)
                .append("\": ")
                .append(parameters.get(toolKey));
        for (String paramsKey : new String[] {"tool_params", "params"}) {
            if (parameters.has(paramsKey)) {
                canonical.append(", \"").append(paramsKey).append("\": {...}");
            }
        }
        if (parameters.has("output_vars")) {
            canonical
                    .append(", \"output_vars\": ")
                    .append(parameters.get("output_vars").toString().replace(",", ", "));
        }
        canonical.append("}}");
        return Diagnostic.warning(
                seqNo,
                pointer + "/type",
                "type '" + tool + "' with " + toolKey + " is the legacy form of a tool call; it runs as " + canonical);
    }

    private static String legacyTool(JsonNode node, Set<String> customTypes) {
        JsonNode type = node.path("type");
        JsonNode parameters = node.path("parameters");
        if (!type.isTextual()
                || !parameters.isObject()
                || InstructionTyper.TYPES.contains(type.asText())
                || customTypes.contains(type.asText())) {
            return null;
        }
        JsonNode toolName = parameters.get("tool_name");
        JsonNode tool = parameters.get("tool");
        JsonNode named = toolName != null && tool == null ? toolName : tool != null && toolName == null ? tool : null;
        return named != null && named.isTextual() && named.asText().equals(type.asText()) ? named.asText() : null;
    }
}
