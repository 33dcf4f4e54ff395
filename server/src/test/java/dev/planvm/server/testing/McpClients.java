package dev.planvm.server.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import java.time.Duration;

/** The MCP SDK's own client for {@code planvm mcp} over Streamable HTTP on loopback, as an agent would connect. */
public final class McpClients {

    private McpClients() {}

    /** A client of the server on 127.0.0.1:{@code port} (endpoint {@code /mcp}), not yet initialized. */
    public static McpSyncClient of(int port, Duration requestTimeout) {
        return McpClient.sync(HttpClientStreamableHttpTransport.builder("http://127.0.0.1:" + port)
                        .endpoint("/mcp")
                        .jsonMapper(new JacksonMcpJsonMapper(new ObjectMapper()))
                        .build())
                .requestTimeout(requestTimeout)
                .build();
    }
}
