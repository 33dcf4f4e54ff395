package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.mcp.PlanMcpServer;
import dev.planvm.server.testing.McpClients;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import dev.planvm.server.testing.SseClient;
import dev.planvm.tools.Tool;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An Idyll document sent as text with {@code "dialect": "idyll"} runs over HTTP and over MCP: the run's
 * result is the execution report, a block whose function is no tool of the service fails alone, and
 * the stored steps name the document's lines.
 */
class IdyllRunsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static final String DOCUMENT = """
            <document id="over-the-wire">
              <p>Two blocks; the second calls a function the service does not have.</p>
              <fncall id="first" idyll-fn="echo"><params>{"n": 1}</params><content>hello</content></fncall>
              <fncall id="second" idyll-fn="demo:missing"/>
            </document>
            """;

    @TempDir
    Path dir;

    @Test
    void a_document_runs_over_http_and_its_result_is_the_report() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            Answer run = fixture.post(
                    "/v1/runs?wait=true",
                    ServerFixture.runBody(TextNode.valueOf(DOCUMENT).toString(), "\"dialect\": \"idyll\""));
            assertThat(run.status()).as(run.json().toString()).isEqualTo(200);
            assertThat(run.json().path("state").asText()).isEqualTo("succeeded");
            JsonNode nodes = run.json().at("/result/nodes");
            assertThat(nodes.get(0).path("data").path("n").asInt()).isEqualTo(1);
            assertThat(nodes.get(0).path("data").path("content").asText()).isEqualTo("hello");
            assertThat(nodes.get(1).at("/error/message").asText()).isEqualTo("Function not found: demo:missing");
            assertThat(run.json().at("/result/metadata/nodesFailed").asInt()).isEqualTo(1);
            Answer stored = fixture.get("/v1/runs/" + run.json().path("id").asText());
            assertThat(run.json().at("/result/nodes/0/duration_ms").asDouble())
                    .as("the block's steps' time, not the 0 the plan writes")
                    .isPositive();
            assertThat(run.json().at("/result/metadata/totalDuration_ms").asDouble())
                    .isPositive();
            assertThat(stored.json().path("result"))
                    .as("the stored run shows the same report")
                    .isEqualTo(run.json().path("result"));
            assertThat(stored.json().at("/steps/1/line").asInt())
                    .as("the first block's call")
                    .isEqualTo(3);
            List<SseClient.Event> events = SseClient.read(
                    fixture.client,
                    fixture.request("/v1/runs/" + run.json().path("id").asText() + "/events"),
                    null,
                    10_000);
            JsonNode finished = events.get(events.size() - 1).data();
            assertThat(events.get(events.size() - 1).type()).isEqualTo("run_finished");
            assertThat(finished.at("/result/nodes/0/duration_ms").asDouble())
                    .as("the live event's report has the block's time too: " + finished)
                    .isPositive();
        }
    }

    @Test
    void a_document_runs_over_mcp() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("echo", "Answers its params.", (p, c) -> p))
                .build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                McpSchema.CallToolResult run = client.callTool(McpSchema.CallToolRequest.builder("run_plan")
                        .arguments(Map.of("plan", DOCUMENT, "dialect", "idyll"))
                        .build());
                assertThat(run.isError()).isFalse();
                JsonNode outcome = JSON.valueToTree(run.structuredContent());
                assertThat(outcome.path("state").asText()).isEqualTo("succeeded");
                assertThat(outcome.at("/result/metadata/nodesExecuted").asInt()).isEqualTo(2);
                assertThat(outcome.at("/result/nodes/0/duration_ms").asDouble()).isPositive();
                McpSchema.CallToolResult got = client.callTool(McpSchema.CallToolRequest.builder("get_run")
                        .arguments(Map.of("run_id", outcome.path("id").asText()))
                        .build());
                assertThat(JSON.valueToTree(got.structuredContent()).path("result"))
                        .as("get_run shows the same report")
                        .isEqualTo(outcome.path("result"));
                assertThat(outcome.at("/result/nodes/1/error/message").asText())
                        .isEqualTo("Function not found: demo:missing");
            } finally {
                client.closeGracefully();
            }
        }
    }
}
