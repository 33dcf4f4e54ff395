package dev.planvm.integrations.mcp;

import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolResolver;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tools of the configured MCP servers, each server started on first need, once per process: a
 * plan calling {@code fs:read_file} starts {@code fs}; a bare name ({@code read_file}) starts every
 * server, to find the one tool of that name; a listing starts them all. A server that failed to start
 * is not tried again; {@link #unavailable()} says why.
 */
final class LazyServers implements ToolResolver {

    private final Map<String, McpConnection> servers = new LinkedHashMap<>();
    private final Map<McpConnection, List<McpTool>> started = new LinkedHashMap<>();
    private final Map<String, String> notes = new TreeMap<>();

    LazyServers(List<McpConnection> connections) {
        connections.forEach(connection -> servers.put(connection.name(), connection));
    }

    @Override
    public synchronized Optional<Tool> resolve(String name) {
        int colon = name.indexOf(':');
        if (colon > 0) {
            McpConnection server = servers.get(name.substring(0, colon));
            if (server == null) {
                return Optional.empty();
            }
            start(List.of(server));
            return started.getOrDefault(server, List.of()).stream()
                    .filter(tool -> tool.name().equals(name))
                    .<Tool>map(tool -> tool)
                    .findFirst();
        }
        start(servers.values());
        return McpToolProvider.aliases(startedTools()).stream()
                .filter(alias -> alias.name().equals(name))
                .<Tool>map(alias -> alias)
                .findFirst();
    }

    @Override
    public synchronized List<Tool> all() {
        start(servers.values());
        List<Tool> all = new ArrayList<>(startedTools());
        all.addAll(McpToolProvider.aliases(startedTools()));
        return all;
    }

    @Override
    public synchronized Map<String, String> unavailable() {
        return Map.copyOf(notes);
    }

    /** Starts, in parallel, those of these servers not tried yet. */
    private void start(Iterable<McpConnection> which) {
        List<McpConnection> pending = new ArrayList<>();
        which.forEach(connection -> {
            if (!started.containsKey(connection)) {
                pending.add(connection);
            }
        });
        if (pending.isEmpty()) {
            return;
        }
        Map<McpConnection, List<McpSchema.Tool>> listed = McpToolProvider.start(pending, notes);
        List<McpTool> tools = McpToolProvider.tools(listed, notes);
        for (McpConnection connection : pending) {
            started.put(
                    connection,
                    tools.stream()
                            .filter(tool -> tool.connection() == connection)
                            .toList());
        }
    }

    private List<McpTool> startedTools() {
        List<McpTool> tools = new ArrayList<>();
        started.values().forEach(tools::addAll);
        return tools;
    }
}
