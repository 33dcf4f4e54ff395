package dev.planvm.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.PlanService;
import dev.planvm.server.internal.AllowedHosts;
import dev.planvm.server.internal.ErrorAnswers;
import dev.planvm.server.internal.HttpListener;
import dev.planvm.server.internal.RequestGuard;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;

/**
 * {@code planvm mcp}: planvm as an MCP server (the official Java SDK), over stdio or Streamable HTTP, with
 * the tools {@code validate_plan}, {@code run_plan}, {@code get_run}, {@code plan_schema} and
 * {@code list_tools} over a {@link PlanService}. An agent in any MCP client has its plans validated and
 * run by planvm with planvm's tools, store and policy.
 */
public final class PlanMcpServer {

    private static final ObjectMapper MAPPER = JsonMappers.lenientBinding(JsonLimits.MCP_MESSAGE);
    private static final McpJsonMapper JSON =
            new JacksonMcpJsonMapper(ErrorJson.install(JsonMappers.lenientBinding(JsonLimits.STORE)));
    private static final String INSTRUCTIONS =
            "planvm validates and runs sequenced plans (StackVM JSON: a list of assign, "
                    + "jmp, calling and reasoning instructions). Get the format from plan_schema and the callable tools from list_tools, "
                    + "check a plan with validate_plan, run it with run_plan, and look a run up with get_run.";

    private PlanMcpServer() {}

    /**
     * Serves MCP over {@code in} and {@code out} (stdio), one JSON-RPC message a line: a line that is not one
     * is answered with the JSON-RPC error for it (-32700 parse error, -32600 invalid request) and serving goes
     * on; the end of {@code in} ends it ({@link Stdio#awaitEnd}). Close the returned server when done.
     */
    public static Stdio stdio(PlanService service, InputStream in, OutputStream out, String version) {
        StdioLines lines = new StdioLines(in, out, MAPPER, JSON);
        StdioServerTransportProvider transport =
                new StdioServerTransportProvider(JSON, lines.input(), out, StdioLines.MAX_LINE_BYTES);
        McpSyncServer mcp = McpServer.sync(transport)
                .serverInfo("planvm", version)
                .jsonMapper(JSON)
                .instructions(INSTRUCTIONS)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(McpTools.of(service, JSON))
                .build();
        lines.start();
        return new Stdio(mcp, lines.ended());
    }

    /** A server on stdio. */
    public record Stdio(McpSyncServer mcp, CompletableFuture<Void> ended) implements AutoCloseable {
        /** Waits until the input ended (the client closed it). */
        public void awaitEnd() throws InterruptedException {
            try {
                ended.get();
            } catch (ExecutionException e) {
                // ended all the same
            }
        }

        @Override
        public void close() {
            mcp.closeGracefully();
        }
    }

    /** Serves MCP over Streamable HTTP at {@code http://HOST:PORT/mcp} (port 0: any free one); close it when done. */
    public static Http http(PlanService service, String host, int port, String version) throws Exception {
        return http(service, host, port, List.of(), List.of(), version);
    }

    /**
     * Serves MCP over Streamable HTTP at {@code http://HOST:PORT/mcp} (port 0: any free one), on a loopback
     * address only (it has no authentication); close it when done. As {@code planvm serve} does, it answers
     * only requests that name it ({@code Host}: the address, {@code localhost}, or one of {@code allowHosts}),
     * refuses a request from a web page unless its origin is one of {@code allowOrigins} (the MCP specification
     * requires servers to validate {@code Origin}), takes a POST only as JSON, bounds connections, threads and
     * the time a request head may take, and answers every error without a stack trace.
     *
     * @throws IllegalArgumentException for an address that is not loopback, or a malformed host or origin
     */
    public static Http http(
            PlanService service,
            String host,
            int port,
            List<String> allowHosts,
            List<String> allowOrigins,
            String version)
            throws Exception {
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
            throw new IllegalArgumentException(
                    "planvm mcp listens on loopback addresses only, not " + host + " (it has no authentication)");
        }
        Set<String> origins = RequestGuard.origins(allowOrigins);
        AllowedHosts hosts = AllowedHosts.of(host, allowHosts); // refuses a malformed entry before anything listens
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .jsonMapper(JSON)
                .mcpEndpoint("/mcp")
                .build();
        McpSyncServer mcp = McpServer.sync(transport)
                .serverInfo("planvm", version)
                .jsonMapper(JSON)
                .instructions(INSTRUCTIONS)
                .capabilities(
                        McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(McpTools.of(service, JSON))
                .build();
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), "/*");
        context.setErrorHandler(new ErrorAnswers());
        RequestGuard guarded = new RequestGuard(
                hosts,
                origins,
                "GET, POST, DELETE",
                "Authorization, Content-Type, Accept, Last-Event-ID, Mcp-Session-Id, MCP-Protocol-Version",
                "Mcp-Session-Id",
                context);
        HttpListener listener;
        try {
            listener = HttpListener.start(host, port, LIMITS, "planvm-mcp-http", guarded);
        } catch (IOException e) {
            mcp.close();
            throw e;
        }
        return new Http(listener, mcp, host);
    }

    /** Connections, threads and the time a request head may take, for one local MCP client or a few. */
    private static final HttpListener.Limits LIMITS =
            new HttpListener.Limits(256, 64, Duration.ofSeconds(10), Duration.ofSeconds(60), 16 * 1024);

    /** A running Streamable HTTP server. */
    public static final class Http implements AutoCloseable {
        private final HttpListener listener;
        private final McpSyncServer mcp;
        private final String host;

        private Http(HttpListener listener, McpSyncServer mcp, String host) {
            this.listener = listener;
            this.mcp = mcp;
            this.host = host;
        }

        /** The port it listens on. */
        public int port() {
            return listener.port();
        }

        public String host() {
            return host;
        }

        public McpSyncServer mcp() {
            return mcp;
        }

        /** {@code http://HOST:PORT/mcp}. */
        public String url() {
            return "http://" + host + ":" + port() + "/mcp";
        }

        @Override
        public void close() throws IOException {
            mcp.closeGracefully();
            listener.stop();
        }
    }
}
