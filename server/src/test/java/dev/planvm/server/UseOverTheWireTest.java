package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.server.mcp.PlanMcpServer;
import dev.planvm.server.testing.McpClients;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 001's {@code use} over the wire: a run whose plan ends in {@code use EXPR} has {@code "use": true} beside its
 * result in the outcome of {@code POST /v1/runs}, in {@code GET /v1/runs/{id}} and in MCP's {@code run_plan} and
 * {@code get_run}; a run that returns has no {@code use} field.
 */
class UseOverTheWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USED = "docs = ['a', 'b'];\nuse docs;\n";
    private static final String RETURNED = "return ['a'];\n";

    @TempDir
    Path dir;

    @Test
    void http_marks_the_outcome_and_the_stored_run() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            Answer used = post(fixture, USED);
            assertThat(used.status()).as(used.json().toString()).isEqualTo(200);
            assertThat(used.json().path("result").toString()).isEqualTo("[\"a\",\"b\"]");
            assertThat(used.json().path("use").asBoolean())
                    .as(used.json().toString())
                    .isTrue();
            Answer stored = fixture.get("/v1/runs/" + used.json().path("id").asText());
            assertThat(stored.json().path("use").asBoolean()).isTrue();

            Answer returned = post(fixture, RETURNED);
            assertThat(returned.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(returned.json().has("use")).isFalse();
            assertThat(fixture.get("/v1/runs/" + returned.json().path("id").asText())
                            .json()
                            .has("use"))
                    .isFalse();
        }
    }

    private static Answer post(ServerFixture fixture, String script) throws Exception {
        return fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(TextNode.valueOf(script).toString(), "\"dialect\": \"js\""));
    }

    @Test
    void mcp_marks_run_plan_and_get_run() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(60));
            try {
                client.initialize();
                JsonNode used = call(client, "run_plan", Map.of("plan", USED, "dialect", "js"));
                assertThat(used.path("use").asBoolean()).as(used.toString()).isTrue();
                JsonNode got =
                        call(client, "get_run", Map.of("run_id", used.path("id").asText()));
                assertThat(got.path("use").asBoolean()).isTrue();
                JsonNode returned = call(client, "run_plan", Map.of("plan", RETURNED, "dialect", "js"));
                assertThat(returned.path("state").asText()).isEqualTo("succeeded");
                assertThat(returned.has("use")).isFalse();
            } finally {
                client.closeGracefully();
            }
        }
    }

    private static JsonNode call(McpSyncClient client, String tool, Map<String, Object> arguments) {
        McpSchema.CallToolResult result = client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
        assertThat(result.isError()).as(String.valueOf(result.content())).isFalse();
        return JSON.valueToTree(result.structuredContent());
    }
}
