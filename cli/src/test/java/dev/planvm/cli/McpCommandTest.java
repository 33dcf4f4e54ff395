package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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

/** {@code planvm mcp} in a child JVM, driven over stdio by the MCP SDK's client: list tools, validate, run, get_run. */
class McpCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void an_mcp_client_validates_runs_and_gets_runs_over_stdio() throws Exception {
        Path store = dir.resolve("runs.db");
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
                        store.toString())
                .env(Map.of(
                        "PLANVM_CONFIG",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString()))
                .build();
        McpSyncClient client = McpClient.sync(new StdioClientTransport(server, new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60))
                .build();
        try {
            McpSchema.InitializeResult init = client.initialize();
            assertThat(init.serverInfo().name()).isEqualTo("planvm");
            assertThat(client.listTools().tools())
                    .extracting(McpSchema.Tool::name)
                    .containsExactlyInAnyOrder(
                            "validate_plan", "run_plan", "get_run", "answer_input", "plan_schema", "list_tools");

            McpSchema.CallToolResult invalid = call(
                    client,
                    "validate_plan",
                    "{\"name\": \"x.json\", \"plan\": "
                            + "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 4}}]}");
            assertThat(invalid.isError()).isTrue();
            assertThat(structured(invalid).path("diagnostics").findValuesAsText("line"))
                    .contains(
                            "x.json: seq_no 0 at /0/parameters/target_seq: jump target 4 is not a seq_no of this plan (they run from 0 to 0)");

            String plan = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"vector_search\", "
                    + "\"tool_params\": {\"q\": \"${q}\"}, \"output_vars\": \"docs\"}},"
                    + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"found ${docs}\"}}]";
            String cassette =
                    "{\"format\": \"planvm-cassette/1\", \"interactions\": [{\"type\": \"tool\", \"tool\": \"vector_search\", "
                            + "\"params\": {\"q\": \"tidb\"}, \"output\": \"3 documents\"}]}";
            McpSchema.CallToolResult run = call(
                    client,
                    "run_plan",
                    "{\"plan\": " + plan + ", \"inputs\": {\"q\": \"tidb\"}, " + "\"mode\": \"replay\", \"cassette\": "
                            + cassette + "}");
            assertThat(run.isError()).isFalse();
            JsonNode outcome = structured(run);
            assertThat(outcome.path("state").asText()).isEqualTo("succeeded");
            assertThat(outcome.path("result").asText()).isEqualTo("found 3 documents");
            assertThat(outcome.path("trace")).hasSize(2);
            assertThat(JSON.readTree(((McpSchema.TextContent) run.content().get(0)).text()))
                    .isEqualTo(outcome);

            McpSchema.CallToolResult stored = call(
                    client, "get_run", "{\"run_id\": \"" + outcome.path("id").asText() + "\"}");
            assertThat(structured(stored).path("state").asText()).isEqualTo("succeeded");
            assertThat(structured(stored).path("steps")).hasSize(2);

            McpSchema.CallToolResult live = call(client, "run_plan", "{\"plan\": " + plan + "}");
            assertThat(live.isError()).isTrue();
            assertThat(structured(live).path("error").asText()).isEqualTo("rejected");
            assertThat(structured(live).path("message").asText())
                    .contains("seq_no 0: tool 'vector_search' is not installed");

            assertThat(structured(call(client, "plan_schema", "{}"))
                            .path("$schema")
                            .asText())
                    .contains("2020-12");
        } finally {
            client.closeGracefully();
        }
        assertThat(store).exists();
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, String args) throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = JSON.readValue(args, Map.class);
        return client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(map).build());
    }

    private static JsonNode structured(McpSchema.CallToolResult result) {
        return JSON.valueToTree(result.structuredContent());
    }
}
