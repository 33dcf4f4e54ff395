package dev.planvm.bench;

import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The MCP server {@link McpBench} starts on stdio, written with the official SDK: {@code echo}
 * answers its {@code text} argument, {@code work} sleeps {@code ms} milliseconds; both read-only.
 * It exits when its stdin closes.
 */
public final class McpBenchServer {

    private McpBenchServer() {}

    public static void main(String[] args) throws Exception {
        McpJsonMapper mapper = new JacksonMcpJsonMapper(JsonMappers.mapper(JsonLimits.STORE));
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
        McpSchema.ToolAnnotations readOnly = new McpSchema.ToolAnnotations(null, true, false, true, false, null);
        SyncToolSpecification echo = SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(
                                "echo",
                                mapper,
                                "{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}}}")
                        .description("Answers its text.")
                        .annotations(readOnly)
                        .build())
                .callHandler((exchange, request) -> CallToolResult.builder()
                        .addTextContent(String.valueOf(request.arguments().get("text")))
                        .build())
                .build();
        SyncToolSpecification work = SyncToolSpecification.builder()
                .tool(McpSchema.Tool.builder(
                                "work",
                                mapper,
                                "{\"type\": \"object\", \"properties\": {\"ms\": {\"type\": \"integer\"}}}")
                        .description("Sleeps ms milliseconds.")
                        .annotations(readOnly)
                        .build())
                .callHandler((exchange, request) -> {
                    try {
                        Thread.sleep(((Number) request.arguments().get("ms")).longValue());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return CallToolResult.builder().addTextContent("done").build();
                })
                .build();
        McpServer.sync(new StdioServerTransportProvider(mapper, in, System.out))
                .serverInfo("planvm-bench", "1")
                .jsonMapper(mapper)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .tools(echo, work)
                .build();
        Thread.currentThread().join();
    }
}
