package dev.planvm.integrations.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.Json;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A tool of an MCP server, named {@code server:tool}, with the server's own JSON Schema as its params
 * schema. Read-only tools ({@code readOnlyHint: true}) may start early; every other tool is treated
 * as having side effects. Thread-safe: calls share the server's connection.
 */
final class McpTool implements Tool {

    private final McpConnection connection;
    private final String toolName;
    private final String description;
    private final JsonNode schema;
    private final boolean readOnly;

    /** The server this tool belongs to. */
    McpConnection connection() {
        return connection;
    }

    McpTool(McpConnection connection, String toolName, String description, JsonNode schema, boolean readOnly) {
        this.connection = connection;
        this.toolName = toolName;
        this.description = description;
        this.schema = schema;
        this.readOnly = readOnly;
    }

    @Override
    public String name() {
        return connection.name() + ":" + toolName;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public JsonNode paramsSchema() {
        return schema;
    }

    @Override
    public boolean hasSideEffects() {
        return !readOnly;
    }

    @Override
    public Optional<Duration> callTimeout() {
        return Optional.ofNullable(connection.spec().timeout());
    }

    /** 120 s, when neither the server's {@code timeout_s} nor the run sets one. */
    @Override
    public Optional<Duration> defaultCallTimeout() {
        return Optional.of(McpConnection.DEFAULT_REQUEST_TIMEOUT);
    }

    @Override
    public OptionalInt maxAttempts() {
        Integer retries = connection.spec().retries();
        return retries == null ? OptionalInt.empty() : OptionalInt.of(retries + 1);
    }

    @Override
    @SuppressWarnings("unchecked")
    public JsonNode invoke(JsonNode params, CallContext context) {
        Map<String, Object> arguments = Json.MAPPER.convertValue(params, Map.class);
        Duration timeout = context.ioTimeout(callTimeout(), McpConnection.DEFAULT_REQUEST_TIMEOUT);
        return McpResults.output(name(), connection.call(toolName, arguments, timeout));
    }

    /** The server's name for this tool. */
    String toolName() {
        return toolName;
    }

    @Override
    public String toString() {
        return "McpTool[" + name() + "]";
    }
}
