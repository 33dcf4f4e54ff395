package dev.planvm.integrations.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.integrations.internal.Json;
import dev.planvm.integrations.internal.ParamsSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * MCP servers as tools: the {@code mcpServers} section of the tools configuration, in the shape MCP
 * clients already use: {@code {"name": {"command", "args", "env"}}} for a server planvm starts and
 * speaks to on stdio, {@code {"name": {"url", "headers"}}} for a Streamable HTTP server. planvm's own
 * optional keys: {@code timeout_s} and {@code retries} (per call), {@code start_timeout_s} (start-up
 * and {@code initialize}, default 30 s), {@code cwd} (stdio; default: the configuration file's
 * directory), {@code type} and {@code disabled} (as other clients write them). {@code env} values and
 * {@code headers} may name secrets ({@code ${secret:NAME}}).
 *
 * <p>Every tool a server lists becomes a tool named {@code server:tool}, and also its bare name
 * when no other server lists a tool of that name ({@link McpAlias}). Its params schema is the
 * server's JSON Schema. A tool annotated {@code readOnlyHint: true} may start early; any other has
 * side effects. A server tool whose name a plan cannot call is reported in {@link #unavailable}, as is
 * a server that failed to start (key {@code server:*}), with why.
 *
 * <p><b>When servers start:</b> listing a server's tools needs it running, so {@link #tools(ToolSetup)}
 * starts every configured server, all at once (in parallel), when the configuration is loaded; the
 * connections are kept, so calls never pay start-up again, and servers run once per process (per
 * loaded configuration) until {@code ToolSetup.close()}. A stdio server that exits is restarted once.
 * Registered in {@code META-INF/services/dev.planvm.tools.ToolProvider}.
 */
public final class McpToolProvider implements ToolProvider {

    /** The configuration key. */
    public static final String SECTION = "mcpServers";
    /** How long a start may take beyond the server's own start timeout before it is given up. */
    private static final Duration SLACK = Duration.ofSeconds(5);

    private volatile Map<String, String> unavailable = Map.of();

    @Override
    public Map<String, JsonNode> configSections() {
        try (var in = McpToolProvider.class.getResourceAsStream("mcp-servers.schema.json")) {
            return Map.of(SECTION, Json.MAPPER.readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<Tool> tools(ToolSetup setup) {
        Optional<JsonNode> section = setup.section(SECTION);
        Map<String, String> notes = new TreeMap<>();
        unavailable = Map.of();
        if (section.isEmpty()) {
            return List.of();
        }
        List<McpConnection> connections = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : section.get().properties()) {
            ServerSpec spec = McpServerReader.read(entry.getKey(), entry.getValue(), setup);
            if (spec == null) {
                continue;
            }
            Map<String, String> secrets = new HashMap<>();
            Set<String> missing = new LinkedHashSet<>();
            for (String name : secretNames(spec)) {
                setup.secret(name).ifPresentOrElse(value -> secrets.put(name, value), () -> missing.add(name));
            }
            if (!missing.isEmpty()) {
                String secret = missing.iterator().next();
                notes.put(
                        spec.name() + ":*",
                        "the MCP server '" + spec.name() + "' needs the secret " + secret
                                + ", which is not set (give it with --secret " + secret
                                + "=... or the environment variable " + secret + ")");
                continue;
            }
            connections.add(setup.closeWith(new McpConnection(spec, setup.environment(), secrets)));
        }
        unavailable = Map.copyOf(notes);
        if (setup.problems().isEmpty() && !connections.isEmpty()) {
            setup.resolveWith(new LazyServers(connections));
        }
        return List.of(); // the servers start when a plan first needs one of their tools (LazyServers)
    }

    /** What the last {@link #tools(ToolSetup)} could not offer: servers that failed to start, tools with unusable names or schemas. */
    @Override
    public Map<String, String> unavailable(Map<String, String> environment) {
        return unavailable;
    }

    /** Starts these servers in parallel and lists their tools; a server that fails is noted. */
    static Map<McpConnection, List<McpSchema.Tool>> start(List<McpConnection> connections, Map<String, String> notes) {
        Map<McpConnection, List<McpSchema.Tool>> listed = new LinkedHashMap<>();
        if (connections.isEmpty()) {
            return listed;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(connections.size(), 16), runnable -> {
            Thread thread = new Thread(runnable, "planvm-mcp-start");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Map<McpConnection, Future<List<McpSchema.Tool>>> futures = new LinkedHashMap<>();
            connections.forEach(connection -> futures.put(connection, pool.submit(connection::listTools)));
            for (Map.Entry<McpConnection, Future<List<McpSchema.Tool>>> entry : futures.entrySet()) {
                McpConnection connection = entry.getKey();
                try {
                    long wait = connection.spec().startTimeout().plus(SLACK).toMillis();
                    listed.put(connection, entry.getValue().get(wait, TimeUnit.MILLISECONDS));
                } catch (ExecutionException e) {
                    String why = e.getCause() instanceof ToolException failure
                            ? failure.getMessage()
                            : "the MCP server '" + connection.name() + "' did not start: " + e.getCause();
                    notes.put(connection.name() + ":*", why);
                } catch (TimeoutException e) {
                    entry.getValue().cancel(true);
                    connection.close();
                    notes.put(
                            connection.name() + ":*",
                            "the MCP server '" + connection.name() + "' did not start within "
                                    + McpConnection.seconds(connection.spec().startTimeout()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    notes.put(
                            connection.name() + ":*",
                            "starting the MCP server '" + connection.name() + "' was interrupted");
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return listed;
    }

    /** The tools of the started servers (a tool a plan cannot call is noted instead). */
    static List<McpTool> tools(Map<McpConnection, List<McpSchema.Tool>> listed, Map<String, String> notes) {
        List<McpTool> tools = new ArrayList<>();
        listed.forEach((connection, serverTools) -> {
            Set<String> seen = new LinkedHashSet<>();
            for (McpSchema.Tool tool : serverTools) {
                String name = tool.name() == null ? "" : tool.name();
                String full = connection.name() + ":" + name;
                if (!Json.NAME_PART.matcher(name).matches()) {
                    notes.put(
                            full,
                            "the MCP server '" + connection.name() + "' lists a tool named '" + Json.shorten(name, 100)
                                    + "', which a plan cannot call (tool names use letters, digits, '_', '.', '-')");
                    continue;
                }
                if (!seen.add(name)) {
                    notes.put(
                            full,
                            "the MCP server '" + connection.name() + "' lists two tools named '" + name
                                    + "'; the first is kept");
                    continue;
                }
                JsonNode schema = tool.inputSchema() == null
                        ? Tool.anyObjectSchema()
                        : Json.MAPPER.valueToTree(tool.inputSchema());
                Optional<String> problem = ParamsSchemas.problem(schema);
                if (problem.isPresent()) {
                    notes.put(
                            full,
                            "the MCP server '" + connection.name()
                                    + "' gives this tool a params schema planvm cannot use: " + problem.get());
                    continue;
                }
                boolean readOnly = tool.annotations() != null
                        && Boolean.TRUE.equals(tool.annotations().readOnlyHint());
                String description =
                        tool.description() != null ? tool.description() : tool.title() != null ? tool.title() : "";
                boolean destructive = tool.annotations() == null
                        || !Boolean.FALSE.equals(tool.annotations().destructiveHint());
                tools.add(new McpTool(connection, name, description, schema, readOnly, destructive));
            }
        });
        return tools;
    }

    /** The bare-name aliases of these tools that are unambiguous among them. */
    static List<McpAlias> aliases(List<McpTool> tools) {
        Map<String, Integer> bareNames = new HashMap<>();
        tools.forEach(tool -> bareNames.merge(tool.toolName(), 1, Integer::sum));
        List<McpAlias> aliases = new ArrayList<>();
        for (McpTool tool : tools) {
            if (bareNames.get(tool.toolName()) == 1) {
                aliases.add(new McpAlias(tool));
            }
        }
        return aliases;
    }

    private static Set<String> secretNames(ServerSpec spec) {
        Set<String> names = new LinkedHashSet<>();
        if (spec.transport() instanceof ServerSpec.Stdio stdio) {
            stdio.env().values().forEach(value -> names.addAll(value.secrets()));
        } else if (spec.transport() instanceof ServerSpec.Http http) {
            http.headers().values().forEach(value -> names.addAll(value.secrets()));
        }
        return names;
    }
}
