package dev.planvm.integrations.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.integrations.internal.Json;
import dev.planvm.tools.ToolException;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * What a {@code tools/call} result means for a plan: a result with {@code isError} is a tool failure
 * carrying the server's text (not retriable: the server answered); otherwise the structured content
 * when present, else the text content (joined by newlines when several), parsed as JSON when it is
 * JSON; a result with no text at all gives its content items as JSON.
 */
final class McpResults {

    private static final int MAX_ERROR_TEXT = 1000;

    private McpResults() {}

    static JsonNode output(String tool, McpSchema.CallToolResult result) {
        String text = text(result);
        if (Boolean.TRUE.equals(result.isError())) {
            throw ToolException.permanent("the MCP server reported an error: "
                    + (text.isBlank() ? "(no text)" : Json.shorten(text, MAX_ERROR_TEXT)));
        }
        if (result.structuredContent() != null) {
            return Json.MAPPER.valueToTree(result.structuredContent());
        }
        if (result.content() == null || result.content().isEmpty()) {
            return JsonNodeFactory.instance.nullNode();
        }
        if (hasText(result)) {
            return Json.parse(text).orElseGet(() -> TextNode.valueOf(text));
        }
        return Json.MAPPER.valueToTree(result.content());
    }

    private static boolean hasText(McpSchema.CallToolResult result) {
        return result.content().stream().anyMatch(McpSchema.TextContent.class::isInstance);
    }

    private static String text(McpSchema.CallToolResult result) {
        if (result.content() == null) {
            return "";
        }
        List<String> texts = new ArrayList<>();
        for (McpSchema.Content content : result.content()) {
            if (content instanceof McpSchema.TextContent text && text.text() != null) {
                texts.add(text.text());
            }
        }
        return String.join("\n", texts);
    }
}
