package dev.planvm.integrations.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.config.ToolAlias;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/** The bare name of an MCP tool ({@code read_file} for {@code fs:read_file}) when no other server has a tool of that name. */
final class McpAlias implements ToolAlias {

    private final McpTool tool;

    McpAlias(McpTool tool) {
        this.tool = tool;
    }

    @Override
    public String aliasOf() {
        return tool.name();
    }

    @Override
    public String name() {
        return tool.toolName();
    }

    @Override
    public String description() {
        return tool.description() + (tool.description().isEmpty() ? "" : " ") + "(short name of " + tool.name() + ")";
    }

    @Override
    public JsonNode paramsSchema() {
        return tool.paramsSchema();
    }

    @Override
    public boolean hasSideEffects() {
        return tool.hasSideEffects();
    }

    @Override
    public boolean isDestructive() {
        return tool.isDestructive();
    }

    @Override
    public java.util.List<String> hosts() {
        return tool.hosts();
    }

    @Override
    public Optional<Duration> callTimeout() {
        return tool.callTimeout();
    }

    @Override
    public Optional<Duration> defaultCallTimeout() {
        return tool.defaultCallTimeout();
    }

    @Override
    public OptionalInt maxAttempts() {
        return tool.maxAttempts();
    }

    @Override
    public JsonNode invoke(JsonNode params, CallContext context) {
        return tool.invoke(params, context);
    }

    @Override
    public String toString() {
        return "McpAlias[" + name() + " -> " + aliasOf() + "]";
    }
}
