package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code planvm mcp --plan-tools DIR} over stdio: an MCP client lists and calls a plan tool (a PPE script). */
class McpPlanToolsCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void an_mcp_client_calls_a_plan_tool_of_planvm_mcp_by_its_name_and_one_that_imports_a_script() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Files.writeString(
                tools.resolve("greet.ai.yaml"),
                "---\ndescription: Greets someone\ninput:\n  - who: {required: true, type: string}\n---\n"
                        + "- $ret: \"Hello, {{who}}\"\n");
        Files.createDirectories(tools.resolve("lib"));
        Files.writeString(
                tools.resolve("lib/shout.ai.yaml"), "---\ninput: [content]\n---\n- $ret: \"?=upper(content) + '!'\"\n");
        Files.writeString(
                tools.resolve("exclaim.ai.yaml"),
                "---\ninput:\n  - who: {required: true, type: string}\nimport: [lib/shout.ai.yaml]\n---\n"
                        + "- $echo: \"hello {{who}}\"\n- -> shout\n");
        ServerParameters server = ServerParameters.builder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args(
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "mcp",
                        "--store",
                        dir.resolve("runs.db").toString(),
                        "--plan-tools",
                        tools.toString())
                .env(Map.of(
                        "PLANVM_CONFIG",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString()))
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        try {
            client.initialize();
            McpSchema.Tool greet = client.listTools().tools().stream()
                    .filter(t -> t.name().equals("greet"))
                    .findFirst()
                    .orElseThrow();
            assertThat(greet.description()).isEqualTo("Greets someone");
            assertThat(JSON.valueToTree(greet.inputSchema())
                            .at("/properties/who/type")
                            .asText())
                    .isEqualTo("string");
            McpSchema.CallToolResult hello = client.callTool(McpSchema.CallToolRequest.builder("greet")
                    .arguments(Map.of("who", "Ann"))
                    .build());
            assertThat(hello.isError()).as(String.valueOf(hello.content())).isFalse();
            assertThat(((McpSchema.TextContent) hello.content().get(0)).text()).isEqualTo("Hello, Ann");
            McpSchema.CallToolResult loud = client.callTool(McpSchema.CallToolRequest.builder("exclaim")
                    .arguments(Map.of("who", "Ann"))
                    .build());
            assertThat(loud.isError())
                    .as("a script's import is a plan tool: " + loud.content())
                    .isFalse();
            assertThat(((McpSchema.TextContent) loud.content().get(0)).text()).isEqualTo("HELLO ANN!");
        } finally {
            client.closeGracefully();
        }
    }
}
