package dev.planvm.integrations.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real MCP server for the tests, written with the official SDK: run as a stdio subprocess
 * ({@link #main}, launched with the test class path) or on Streamable HTTP at 127.0.0.1
 * ({@link #startHttp}). Tools:
 * <ul>
 *   <li>{@code lookup} (read-only): waits {@code --lookup-delay-ms}, answers structured content {@code {key, value}};</li>
 *   <li>{@code write} (destructive): counts writes, answers the text {@code wrote KEY};</li>
 *   <li>{@code echo}: answers its arguments as JSON text;</li>
 *   <li>{@code fail}: answers {@code isError} with the text {@code no such record: KEY};</li>
 *   <li>{@code crash}: the process exits (code 3) mid-call;</li>
 *   <li>{@code crash_once}: exits mid-call unless the {@code --marker} file exists, which it creates first;</li>
 *   <li>{@code looping}: a params schema with a {@code $ref} cycle, which planvm refuses;</li>
 *   <li>{@code bad name}: a name no plan can call.</li>
 * </ul>
 * Options: {@code --start-delay-ms N} (sleep before serving), {@code --rendezvous DIR/N} (serve only once N
 * servers are starting at once: {@link #rendezvous}), {@code --lookup-delay-ms N}, {@code --marker FILE},
 * {@code --started FILE} (created when the server starts), {@code --log FILE} (a line {@code TOOL KEY} appended
 * when a call of {@code lookup}, {@code write}, {@code echo} or {@code fail} arrives), {@code --report-peak true}
 * ({@code lookup} also answers {@code peak}: the most lookups this server has run at once so far).
 */
public final class TestMcpServer {

    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(new ObjectMapper());

    private TestMcpServer() {}

    /** Options of one server. */
    public record Options(long startDelayMs, long lookupDelayMs, Path marker, Path started, Path log, boolean peak) {
        public Options(long startDelayMs, long lookupDelayMs, Path marker) {
            this(startDelayMs, lookupDelayMs, marker, null, null, false);
        }

        static Options parse(String[] args) {
            long start = 0;
            long lookup = 0;
            Path marker = null;
            Path started = null;
            Path log = null;
            boolean peak = false;
            for (int i = 0; i + 1 < args.length; i += 2) {
                switch (args[i]) {
                    case "--start-delay-ms" -> start = Long.parseLong(args[i + 1]);
                    case "--lookup-delay-ms" -> lookup = Long.parseLong(args[i + 1]);
                    case "--marker" -> marker = Path.of(args[i + 1]);
                    case "--started" -> started = Path.of(args[i + 1]);
                    case "--log" -> log = Path.of(args[i + 1]);
                    case "--report-peak" -> peak = Boolean.parseBoolean(args[i + 1]);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            return new Options(start, lookup, marker, started, log, peak);
        }
    }

    public static void main(String[] args) throws Exception {
        java.util.List<String> rest = new java.util.ArrayList<>(java.util.List.of(args));
        int meet = rest.indexOf("--rendezvous");
        Path rendezvous = null;
        if (meet >= 0) {
            rendezvous = Path.of(rest.get(meet + 1));
            rest.subList(meet, meet + 2).clear();
        }
        Options options = Options.parse(rest.toArray(String[]::new));
        if (options.started() != null) {
            Files.writeString(options.started(), "started");
        }
        Thread.sleep(options.startDelayMs());
        if (rendezvous != null) {
            rendezvous(rendezvous);
        }
        System.err.println("test MCP server starting");
        InputStream in = new FilterInputStream(System.in) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, len);
                if (n < 0) {
                    Runtime.getRuntime().halt(0);
                }
                return n;
            }
        };
        StdioServerTransportProvider transport = new StdioServerTransportProvider(MAPPER, in, System.out);
        McpServer.sync(transport)
                .serverInfo("planvm-test", "1.0")
                .jsonMapper(MAPPER)
                .strictToolNameValidation(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools(options))
                .build();
        Thread.currentThread().join();
    }

    /**
     * {@code --rendezvous DIR/N}: the server serves only once N servers given the same DIR are starting at once
     * (each leaves a file in DIR); a server started after another was ready never serves (given up after a
     * minute). Proves that a client starts its servers together, with no clock.
     */
    private static void rendezvous(Path spec) throws Exception {
        Path dir = spec.getParent();
        int count = Integer.parseInt(spec.getFileName().toString());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(Long.toString(ProcessHandle.current().pid())), "here");
        for (int i = 0; i < 6_000; i++) {
            try (java.util.stream.Stream<Path> here = Files.list(dir)) {
                if (here.count() >= count) {
                    return;
                }
            }
            Thread.sleep(10);
        }
        Runtime.getRuntime().halt(3);
    }

    /** A Streamable HTTP server on 127.0.0.1 (an ephemeral port); close it when done. */
    public static Http startHttp(Options options) throws Exception {
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(MAPPER)
                .mcpEndpoint("/mcp")
                .build();
        McpSyncServer mcp = McpServer.sync(transport)
                .serverInfo("planvm-test-http", "1.0")
                .jsonMapper(MAPPER)
                .strictToolNameValidation(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(tools(options))
                .build();
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), "/*");
        jakarta.servlet.Filter recorder = (request, response, chain) -> {
            String authorization = ((jakarta.servlet.http.HttpServletRequest) request).getHeader("Authorization");
            if (authorization != null) {
                AUTHORIZATION.set(authorization);
            }
            String traceparent = ((jakarta.servlet.http.HttpServletRequest) request).getHeader("traceparent");
            if (traceparent != null) {
                TRACEPARENT.set(traceparent);
            }
            chain.doFilter(request, response);
        };
        context.addFilter(
                new org.eclipse.jetty.ee11.servlet.FilterHolder(recorder),
                "/*",
                java.util.EnumSet.of(jakarta.servlet.DispatcherType.REQUEST));
        jetty.setHandler(context);
        jetty.start();
        return new Http(jetty, mcp, connector.getLocalPort());
    }

    /** A running HTTP server. */
    public record Http(Server jetty, McpSyncServer mcp, int port) implements AutoCloseable {
        public String url() {
            return "http://127.0.0.1:" + port + "/mcp";
        }

        @Override
        public void close() throws IOException {
            mcp.closeGracefully();
            try {
                jetty.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IOException("the test MCP server did not stop", e);
            }
        }
    }

    /** The last Authorization header the HTTP server received. */
    public static final java.util.concurrent.atomic.AtomicReference<String> AUTHORIZATION =
            new java.util.concurrent.atomic.AtomicReference<>();

    /** The last W3C traceparent header the HTTP server received. */
    public static final java.util.concurrent.atomic.AtomicReference<String> TRACEPARENT =
            new java.util.concurrent.atomic.AtomicReference<>();

    /** How many times {@code write} was called in this JVM (the HTTP server's count). */
    public static final AtomicInteger WRITES = new AtomicInteger();

    /** How many lookups run now, and the most that ever ran at once (this process). */
    private static final AtomicInteger LOOKUPS = new AtomicInteger();

    private static final AtomicInteger PEAK = new AtomicInteger();

    /** Appends {@code TOOL KEY} to the {@code --log} file, if any. */
    private static synchronized void log(Options options, String tool, Map<String, Object> args) {
        if (options.log() != null) {
            try {
                Files.writeString(
                        options.log(),
                        tool + " " + args.get("key") + "\n",
                        java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    static List<SyncToolSpecification> tools(Options options) {
        List<SyncToolSpecification> tools = new ArrayList<>();
        tools.add(tool(
                "lookup",
                "Looks a key up (read-only, slow).",
                new ToolAnnotations("Lookup", true, false, true, false, null),
                (args) -> {
                    log(options, "lookup", args);
                    int running = LOOKUPS.incrementAndGet();
                    PEAK.accumulateAndGet(running, Math::max);
                    try {
                        sleep(options.lookupDelayMs());
                    } finally {
                        LOOKUPS.decrementAndGet();
                    }
                    String key = String.valueOf(args.get("key"));
                    return CallToolResult.builder()
                            .addTextContent("{\"key\": \"" + key + "\"}")
                            .structuredContent(
                                    options.peak()
                                            ? Map.of("key", key, "value", "v-" + key, "peak", PEAK.get())
                                            : Map.of("key", key, "value", "v-" + key))
                            .build();
                },
                "{\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}}, \"required\": [\"key\"]}"));
        tools.add(tool(
                "write",
                "Writes a record (destructive).",
                new ToolAnnotations("Write", false, true, false, false, null),
                (args) -> {
                    log(options, "write", args);
                    WRITES.incrementAndGet();
                    return CallToolResult.builder()
                            .addTextContent("wrote " + args.get("key"))
                            .build();
                },
                "{\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}}, \"required\": [\"key\"]}"));
        tools.add(tool(
                "echo",
                "Answers its arguments as JSON text.",
                null,
                (args) -> {
                    log(options, "echo", args);
                    try {
                        return CallToolResult.builder()
                                .addTextContent(new ObjectMapper().writeValueAsString(args))
                                .build();
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                },
                "{\"type\": \"object\"}"));
        tools.add(tool(
                "fail",
                "Always reports an error.",
                new ToolAnnotations("Fail", true, false, true, false, null),
                (args) -> {
                    log(options, "fail", args);
                    return CallToolResult.builder()
                            .isError(true)
                            .addTextContent("no such record: " + args.get("key"))
                            .build();
                },
                "{\"type\": \"object\", \"properties\": {\"key\": {\"type\": \"string\"}}}"));
        tools.add(tool(
                "crash",
                "Exits mid-call.",
                null,
                (args) -> {
                    System.err.println("crashing on purpose");
                    Runtime.getRuntime().halt(3);
                    return null;
                },
                "{\"type\": \"object\"}"));
        tools.add(tool(
                "crash_once",
                "Exits mid-call unless the marker file exists.",
                null,
                (args) -> {
                    try {
                        if (options.marker() != null && !Files.exists(options.marker())) {
                            Files.writeString(options.marker(), "crashed");
                            System.err.println("crashing once");
                            Runtime.getRuntime().halt(3);
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    return CallToolResult.builder().addTextContent("survived").build();
                },
                "{\"type\": \"object\"}"));
        tools.add(tool(
                "looping",
                "Has a params schema with a $ref cycle, which no validator can finish.",
                null,
                (args) -> CallToolResult.builder().addTextContent("unreachable").build(),
                "{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": \"#/properties/x\"}}}"));
        tools.add(tool(
                "bad name",
                "A name no plan can call.",
                null,
                (args) -> CallToolResult.builder().addTextContent("unreachable").build(),
                "{\"type\": \"object\"}"));
        return tools;
    }

    private interface Handler {
        CallToolResult handle(Map<String, Object> args);
    }

    private static SyncToolSpecification tool(
            String name, String description, ToolAnnotations annotations, Handler handler, String schema) {
        McpSchema.Tool.Builder tool =
                McpSchema.Tool.builder(name, MAPPER, schema).description(description);
        if (annotations != null) {
            tool.annotations(annotations);
        }
        return SyncToolSpecification.builder()
                .tool(tool.build())
                .callHandler((exchange, request) ->
                        handler.handle(request.arguments() == null ? Map.of() : request.arguments()))
                .build();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
