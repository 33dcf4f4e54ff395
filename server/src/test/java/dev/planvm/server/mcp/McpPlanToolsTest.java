package dev.planvm.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.testing.McpClients;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The VM's plan tools are MCP tools of planvm's MCP server: listed with their schemas, called as runs. */
class McpPlanToolsTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static final String GREET = """
            {"name": "greet", "description": "Greets someone",
             "inputs": {"type": "object", "properties": {"who": {"type": "string"}, "greeting": {"default": "Hello"}},
                        "required": ["who"]},
             "output": {"type": "string"},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${greeting}, ${who}"}}]}""";

    private static final String STATS = """
            {"name": "word_stats", "description": "Counts the words of a text",
             "inputs": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
             "output": {"type": "object", "properties": {"words": {"type": "integer"}}, "required": ["words"]},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": {"words": "${len(split(text, ' '))}"}}}]}""";

    @Test
    void an_mcp_client_lists_plan_tools_with_their_schemas_and_calls_them_as_stored_runs() throws Exception {
        PlanVm vm = PlanVm.builder()
                .planTool(new PlanLoader().load(GREET, "greet.json").planOrThrow())
                .planTool(new PlanLoader().load(STATS, "word_stats.json").planOrThrow())
                .build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                Map<String, McpSchema.Tool> tools = new java.util.HashMap<>();
                client.listTools().tools().forEach(t -> tools.put(t.name(), t));
                assertThat(tools).containsKeys("run_plan", "greet", "word_stats");
                McpSchema.Tool greet = tools.get("greet");
                assertThat(greet.description()).isEqualTo("Greets someone");
                assertThat(JSON.valueToTree(greet.inputSchema())
                                .at("/required/0")
                                .asText())
                        .isEqualTo("who");
                assertThat(greet.outputSchema()).isNull(); // a string answer: text content
                assertThat(JSON.valueToTree(tools.get("word_stats").outputSchema())
                                .at("/properties/words/type")
                                .asText())
                        .isEqualTo("integer");

                McpSchema.CallToolResult hello = call(client, "greet", Map.of("who", "Ann"));
                assertThat(hello.isError()).isFalse();
                assertThat(((McpSchema.TextContent) hello.content().get(0)).text())
                        .isEqualTo("Hello, Ann");

                McpSchema.CallToolResult counted = call(client, "word_stats", Map.of("text", "plans call plans"));
                assertThat(counted.isError())
                        .as(String.valueOf(counted.content()))
                        .isFalse();
                assertThat(JSON.valueToTree(counted.structuredContent())
                                .path("words")
                                .asInt())
                        .isEqualTo(3);

                McpSchema.CallToolResult bad = call(client, "greet", Map.of("who", 7));
                assertThat(bad.isError()).isTrue();
                assertThat(((McpSchema.TextContent) bad.content().get(0)).text())
                        .contains("/who")
                        .contains("string expected");
                assertThat(store.list(10)).hasSize(2); // each call a stored run; the bad one never started
            } finally {
                client.closeGracefully();
            }
        }
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }
}
