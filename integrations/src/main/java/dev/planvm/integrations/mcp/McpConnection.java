package dev.planvm.integrations.mcp;

import dev.planvm.integrations.internal.Json;
import dev.planvm.integrations.internal.TraceHeaders;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.ToolException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * planvm's connection to one MCP server, shared by every call of every run in the process. The server
 * is started (or connected to) on first use and kept; calls to it run concurrently. A stdio server
 * that exits is restarted once, on the next call (the failed call is retriable, so the retry policy
 * decides whether it is tried again); a second exit is final. An HTTP server's session is opened
 * again after a connection failure. {@link #close()} stops the server. Thread-safe.
 */
final class McpConnection implements AutoCloseable {

    /** How long a call may take when neither the server's {@code timeout_s} nor the run says. */
    static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(120);

    /**
     * The SDK's own limit on any request: only a backstop, as every request is waited for with its own
     * limit (a call: its attempt's timeout; listing tools: the start timeout).
     */
    private static final Duration BACKSTOP = Duration.ofHours(24);
    /** The largest HTTP answer read from a server. */
    static final int MAX_HTTP_RESPONSE = 16 << 20;

    private static final int MAX_TOOL_PAGES = 100;
    private static final int MAX_TOOLS = 5000;
    /** Where a call's trace headers travel in its transport context. */
    private static final String TRACE_HEADERS = "planvm.trace_headers";

    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JsonMappers.lenientBinding(JsonLimits.MCP_MESSAGE));

    private final ServerSpec spec;
    private final Map<String, String> environment;
    private final Map<String, String> secrets;
    private Session current;
    /** The session being started or running, readable without the lock (a server exiting during start-up). */
    private volatile Session live;

    private int restarts;
    private String finalFailure;
    private boolean closed;

    /** One started server (or HTTP session) and its client. */
    private static final class Session {
        final McpClientTransport transport;
        volatile McpAsyncClient client;
        volatile boolean broken;

        Session(McpClientTransport transport) {
            this.transport = transport;
        }

        boolean dead() {
            return broken || transport instanceof StdioTransport stdio && stdio.exited();
        }

        void close() {
            McpAsyncClient c = client;
            if (c != null) {
                try {
                    c.close();
                } catch (RuntimeException ignored) {
                    // the server is being stopped anyway
                }
            }
            if (transport instanceof StdioTransport stdio) {
                stdio.stop();
            }
        }
    }

    /**
     * @param environment the environment a stdio server starts with (its {@code env} is added)
     * @param secrets     the values of the secrets its {@code env} or {@code headers} name
     */
    McpConnection(ServerSpec spec, Map<String, String> environment, Map<String, String> secrets) {
        this.spec = spec;
        this.environment = Map.copyOf(environment);
        this.secrets = Map.copyOf(secrets);
    }

    String name() {
        return spec.name();
    }

    ServerSpec spec() {
        return spec;
    }

    /**
     * Starts the server when it is not running and lists its tools (every page), each page within the
     * start timeout ({@code start_timeout_s}: listing is part of starting).
     *
     * @throws ToolException saying why the server could not be started or listed
     */
    List<McpSchema.Tool> listTools() {
        Session session = session();
        Duration limit = spec.startTimeout();
        try {
            List<McpSchema.Tool> tools = new ArrayList<>();
            String cursor = null;
            for (int page = 0; page < MAX_TOOL_PAGES; page++) {
                McpSchema.ListToolsResult result =
                        (cursor == null ? session.client.listTools() : session.client.listTools(cursor)).block(limit);
                if (result.tools() != null) {
                    tools.addAll(result.tools());
                }
                cursor = result.nextCursor();
                if (cursor == null || cursor.isEmpty() || tools.size() >= MAX_TOOLS) {
                    break;
                }
            }
            return tools.subList(0, Math.min(tools.size(), MAX_TOOLS));
        } catch (RuntimeException e) {
            throw failure(session, "tools/list", e, limit);
        }
    }

    /**
     * Calls tool {@code tool} of the server with {@code arguments}, waiting at most {@code timeout}
     * (the attempt's: see {@link dev.planvm.tools.Tool#defaultCallTimeout()}).
     */
    McpSchema.CallToolResult call(String tool, Map<String, Object> arguments, Duration timeout) {
        Session session = session();
        try {
            return session.client
                    .callTool(McpSchema.CallToolRequest.builder(tool)
                            .arguments(arguments)
                            .build())
                    .contextWrite(traced())
                    .block(timeout);
        } catch (RuntimeException e) {
            throw failure(session, "tool '" + tool + "'", e, timeout);
        }
    }

    /**
     * The calling thread's trace headers ({@link TraceHeaders}), handed to the HTTP transport through the
     * reactive context (its requests are built on other threads, where the call's span is not current).
     */
    private static java.util.function.Function<reactor.util.context.Context, reactor.util.context.Context> traced() {
        Map<String, String> trace = TraceHeaders.current();
        if (trace.isEmpty()) {
            return context -> context;
        }
        return context ->
                context.put(McpTransportContext.KEY, McpTransportContext.create(Map.of(TRACE_HEADERS, trace)));
    }

    /** The trace headers a request's transport context carries, except those the configuration sets itself. */
    @SuppressWarnings("unchecked")
    private static Map<String, String> traceHeaders(McpTransportContext context, Map<String, String> configured) {
        Object trace = context == null ? null : context.get(TRACE_HEADERS);
        if (!(trace instanceof Map<?, ?> map)) {
            return Map.of();
        }
        Map<String, String> added = new LinkedHashMap<>();
        ((Map<String, String>) map).forEach((name, value) -> {
            if (configured.keySet().stream().noneMatch(name::equalsIgnoreCase)) {
                added.put(name, value);
            }
        });
        return added;
    }

    /** The running session, started (or restarted once) as needed. */
    private synchronized Session session() {
        if (closed) {
            throw ToolException.permanent("the MCP server '" + name() + "' has been shut down");
        }
        if (finalFailure != null) {
            throw ToolException.permanent(finalFailure);
        }
        if (current != null && !current.dead()) {
            return current;
        }
        boolean stdio = spec.transport() instanceof ServerSpec.Stdio;
        if (current != null) {
            String why = describeExit(current);
            current.close();
            current = null;
            if (stdio && restarts >= 1) {
                finalFailure = "the MCP server '" + name() + "' stopped again after planvm restarted it once (" + why
                        + "); it is not restarted a second time";
                throw ToolException.permanent(finalFailure);
            }
            if (stdio) {
                restarts++;
            }
        }
        Session started = open();
        current = started;
        return started;
    }

    private Session open() {
        Session session = new Session(transport());
        live = session;
        McpAsyncClient client = McpClient.async(session.transport)
                .requestTimeout(BACKSTOP)
                .initializationTimeout(spec.startTimeout())
                .clientInfo(McpSchema.Implementation.builder("planvm", "0.1.0").build())
                .build();
        session.client = client;
        try {
            client.initialize().block(spec.startTimeout().plusSeconds(1));
            return session;
        } catch (RuntimeException e) {
            String why = startFailure(session, e);
            session.close();
            if (restarts > 0 || current != null) {
                finalFailure = why;
            }
            throw ToolException.permanent(why);
        }
    }

    private McpClientTransport transport() {
        if (spec.transport() instanceof ServerSpec.Stdio stdio) {
            List<String> command = new ArrayList<>();
            command.add(stdio.command());
            command.addAll(stdio.args());
            Map<String, String> env = new HashMap<>(environment);
            stdio.env().forEach((key, value) -> env.put(key, value.renderSecrets(secrets)));
            return new StdioTransport(name(), command, env, stdio.directory(), MAPPER, this::exited);
        }
        ServerSpec.Http http = (ServerSpec.Http) spec.transport();
        URI uri = URI.create(http.url());
        String base = uri.getScheme() + "://" + uri.getRawAuthority();
        String endpoint = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        Map<String, String> headers = new LinkedHashMap<>();
        http.headers().forEach((key, value) -> headers.put(key, value.renderSecrets(secrets)));
        return HttpClientStreamableHttpTransport.builder(base)
                .endpoint(endpoint)
                .jsonMapper(MAPPER)
                .clientBuilder(HttpClient.newBuilder()
                        .version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10))
                        .followRedirects(HttpClient.Redirect.NEVER))
                .addHttpRequestCustomizer((builder, method, target, body, context) -> {
                    headers.forEach(builder::setHeader);
                    traceHeaders(context, headers).forEach(builder::setHeader);
                })
                .maxResponseSize(MAX_HTTP_RESPONSE)
                .build();
    }

    /** Told by a stdio transport that its server exited: fails the calls waiting for it at once. */
    private void exited(StdioTransport transport) {
        Session session = live;
        if (session != null && session.transport == transport) {
            McpAsyncClient client = session.client;
            if (client != null) {
                try {
                    client.close();
                } catch (RuntimeException ignored) {
                    // closing only fails the pending requests
                }
            }
        }
    }

    private String startFailure(Session session, RuntimeException e) {
        String prefix = "the MCP server '" + name() + "' did not start";
        if (session.transport instanceof StdioTransport stdio && stdio.exited()) {
            return prefix + ": " + stdio.exitDescription();
        }
        if (find(e, TimeoutException.class) != null) {
            String tail = session.transport instanceof StdioTransport stdio ? stdio.stderrTail() : "";
            return prefix + ": it did not answer 'initialize' within " + seconds(spec.startTimeout())
                    + (tail.isEmpty() ? "" : "; its stderr ended with: " + tail);
        }
        return prefix + ": " + reason(e);
    }

    private ToolException failure(Session session, String what, RuntimeException e, Duration timeout) {
        String server = "the MCP server '" + name() + "'";
        if (find(e, InterruptedException.class) != null
                || Thread.currentThread().isInterrupted()) {
            Thread.currentThread().interrupt();
            return new ToolException("the call of " + what + " of " + server + " was interrupted", false);
        }
        if (session.transport instanceof StdioTransport stdio && stdio.exited()) {
            return new ToolException(
                    server + " stopped during the call of " + what + " (" + stdio.exitDescription() + ")", true);
        }
        McpError error = find(e, McpError.class);
        if (error != null) {
            String message = error.getJsonRpcError() == null
                    ? error.getMessage()
                    : error.getJsonRpcError().message();
            return new ToolException(
                    server + " refused " + what + ": " + Json.shorten(String.valueOf(message), 500), false);
        }
        if (find(e, TimeoutException.class) != null) {
            return new ToolException(server + " did not answer " + what + " within " + seconds(timeout), true);
        }
        if (find(e, IOException.class) != null) {
            session.broken = true;
            return new ToolException("cannot reach " + server + " for " + what + ": " + reason(e), true);
        }
        if (String.valueOf(e.getMessage()).contains("MCP session with server terminated")) {
            session.broken = true;
            return new ToolException(server + " closed the session during the call of " + what, true);
        }
        return new ToolException(server + " failed " + what + ": " + reason(e), false);
    }

    private static String describeExit(Session session) {
        if (session.transport instanceof StdioTransport stdio && stdio.exited()) {
            return stdio.exitDescription();
        }
        return "its connection failed";
    }

    private static String reason(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return Json.shorten(message, 500);
    }

    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    /** Stops the server (or closes the HTTP session); later calls fail. */
    @Override
    public void close() {
        Session session;
        synchronized (this) {
            closed = true;
            session = current;
            current = null;
        }
        Session starting = live;
        if (session != null) {
            session.close();
        }
        if (starting != null && starting != session) {
            starting.close();
        }
    }

    @Override
    public String toString() {
        return "MCP server '" + name() + "'";
    }
}
