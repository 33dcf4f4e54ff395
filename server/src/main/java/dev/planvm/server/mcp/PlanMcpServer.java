package dev.planvm.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.PlanService;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@code planvm mcp}: planvm as an MCP server (the official Java SDK), over stdio or Streamable HTTP, with
 * the tools {@code validate_plan}, {@code run_plan}, {@code get_run}, {@code plan_schema} and
 * {@code list_tools} over a {@link PlanService}. An agent in any MCP client has its plans validated and
 * run by planvm with planvm's tools, store and policy.
 */
public final class PlanMcpServer {

    private static final ObjectMapper MAPPER = JsonMappers.lenientBinding(JsonLimits.MCP_MESSAGE);
    private static final McpJsonMapper JSON = new JacksonMcpJsonMapper(JsonMappers.lenientBinding(JsonLimits.STORE));
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
        if (!InetAddress.getByName(host).isLoopbackAddress()) {
            throw new IllegalArgumentException(
                    "planvm mcp listens on loopback addresses only, not " + host + " (it has no authentication)");
        }
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
        Server jetty = new Server();
        ServerConnector connector = new ServerConnector(jetty);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(transport), "/*");
        jetty.setHandler(context);
        try {
            jetty.start();
        } catch (Exception e) {
            mcp.close();
            throw e;
        }
        return new Http(jetty, mcp, connector.getLocalPort(), host);
    }

    /** A running Streamable HTTP server. */
    public record Http(Server jetty, McpSyncServer mcp, int port, String host) implements AutoCloseable {
        /** {@code http://HOST:PORT/mcp}. */
        public String url() {
            return "http://" + host + ":" + port + "/mcp";
        }

        @Override
        public void close() throws IOException {
            mcp.closeGracefully();
            try {
                jetty.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IOException("the MCP server did not stop: " + e.getMessage(), e);
            }
        }
    }
}
