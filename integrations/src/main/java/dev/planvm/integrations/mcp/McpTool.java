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
 * as having side effects, and as destructive unless the server says {@code destructiveHint: false}. Thread-safe: calls share the server's connection.
 */
final class McpTool implements Tool {

    private final McpConnection connection;
    private final String toolName;
    private final String description;
    private final JsonNode schema;
    private final boolean readOnly;
    private final boolean destructive;

    /** The server this tool belongs to. */
    McpConnection connection() {
        return connection;
    }

    /**
     * @param destructive the server's {@code destructiveHint} (MCP's default when absent: true), for a tool that is
     *                    not read-only
     */
    McpTool(
            McpConnection connection,
            String toolName,
            String description,
            JsonNode schema,
            boolean readOnly,
            boolean destructive) {
        this.connection = connection;
        this.toolName = toolName;
        this.description = description;
        this.schema = schema;
        this.readOnly = readOnly;
        this.destructive = !readOnly && destructive;
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

    /** Not read-only and not annotated {@code destructiveHint: false} (MCP's default is destructive). */
    @Override
    public boolean isDestructive() {
        return destructive;
    }

    /** The host of a Streamable HTTP server; none for a stdio server. */
    @Override
    public java.util.List<String> hosts() {
        return connection.spec().transport() instanceof ServerSpec.Http http
                ? dev.planvm.integrations.internal.Hosts.of(http.url())
                : java.util.List.of();
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
