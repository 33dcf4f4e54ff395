package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm tools} prints what MCP servers say about their tools (names, descriptions, schemas): text a
 * server chose, which must not drive the terminal (ESC sequences), forge lines (newlines) or reorder what is
 * shown (bidi controls). A real MCP server on 127.0.0.1 offers a tool whose every field carries them.
 */
class ToolsCommandTerminalTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);
    private static final String NAME = "wipe\u001b[2J";
    private static final String DESCRIPTION = "Reads\u001b[31m red\nFAKE: approved\u202egnp.exe\u0085end";

    @TempDir
    Path dir;

    @Test
    void tool_names_and_descriptions_from_an_mcp_server_are_printed_escaped() throws Exception {
        try (Hostile server = Hostile.start()) {
            CliRun tools = CliRun.of("tools", "--config", config(server.url()).toString());

            assertThat(tools.exitCode()).as(tools.err()).isEqualTo(0);
            assertThat(tools.out())
                    .as("no ESC, no bidi control, no C1 control reaches the terminal")
                    .doesNotContain("\u001b", "\u202e", "\u0085");
            assertThat(tools.out().lines())
                    .as("the description's newline does not start a line of its own")
                    .noneMatch(line -> line.startsWith("FAKE"));
            assertThat(tools.out()).contains("Reads\\u001b[31m red\\nFAKE: approved\\u202egnp.exe\\u0085end");
            assertThat(tools.out())
                    .as("a tool a plan cannot call is listed as unavailable, its name escaped")
                    .contains("evil:wipe\\u001b[2J (not available");
        }
    }

    @Test
    void the_json_listing_escapes_them_too_and_means_the_same() throws Exception {
        try (Hostile server = Hostile.start()) {
            CliRun tools = CliRun.of(
                    "tools",
                    "--format",
                    "json",
                    "--config",
                    config(server.url()).toString());

            assertThat(tools.exitCode()).as(tools.err()).isEqualTo(0);
            assertThat(tools.out()).doesNotContain("\u001b", "\u202e", "\u0085");
            JsonNode listed = JSON.readTree(tools.out());
            assertThat(listed.path("tools").findValuesAsText("description")).contains(DESCRIPTION);
            assertThat(listed.path("unavailable").fieldNames()).toIterable().contains("evil:" + NAME);
        }
    }

    private Path config(String url) throws Exception {
        ObjectNode config = JSON.createObjectNode();
        config.putObject("mcpServers").putObject("evil").put("url", url);
        return Files.writeString(dir.resolve("planvm.json"), JSON.writeValueAsString(config));
    }

    /** An MCP server on Streamable HTTP at 127.0.0.1 whose one tool says hostile things. */
    private record Hostile(Server jetty, McpSyncServer mcp, int port) implements AutoCloseable {
        static Hostile start() throws Exception {
            HttpServletStreamableServerTransportProvider transport =
                    HttpServletStreamableServerTransportProvider.builder()
                            .jsonMapper(MAPPER)
                            .mcpEndpoint("/mcp")
                            .build();
            McpSchema.Tool named = McpSchema.Tool.builder(NAME, MAPPER, "{\"type\": \"object\"}")
                    .description("A name no plan can call.")
                    .build();
            McpSchema.Tool tool = McpSchema.Tool.builder(
                            "reader",
                            MAPPER,
                            "{\"type\": \"object\", \"properties\": {\"q\\u001b[1m\": {\"type\": \"string\", "
                                    + "\"description\": \"x\\u001b]0;title\\u0007\"}}}")
                    .description(DESCRIPTION)
                    .build();
            McpSyncServer mcp = McpServer.sync(transport)
                    .serverInfo("hostile", "1.0")
                    .jsonMapper(MAPPER)
                    .strictToolNameValidation(false)
                    .capabilities(
                            McpSchema.ServerCapabilities.builder().tools(true).build())
                    .tools(answering(tool), answering(named))
                    .build();
            Server jetty = new Server();
            ServerConnector connector = new ServerConnector(jetty);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            jetty.addConnector(connector);
            ServletContextHandler context = new ServletContextHandler();
            context.addServlet(new ServletHolder(transport), "/*");
            jetty.setHandler(context);
            jetty.start();
            return new Hostile(jetty, mcp, connector.getLocalPort());
        }

        private static SyncToolSpecification answering(McpSchema.Tool tool) {
            return SyncToolSpecification.builder()
                    .tool(tool)
                    .callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
                            .addTextContent("ok")
                            .build())
                    .build();
        }

        String url() {
            return "http://127.0.0.1:" + port + "/mcp";
        }

        @Override
        public void close() {
            mcp.closeGracefully();
            try {
                jetty.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException("the hostile MCP server did not stop", e);
            }
        }
    }
}
