package dev.planvm.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceSettings;
import dev.planvm.server.testing.McpClients;
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

/** planvm's MCP server on Streamable HTTP at 127.0.0.1, driven by the SDK's client. */
class McpHttpServerTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void an_mcp_client_lists_the_tools_validates_runs_and_gets_a_run() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of(
                        "upper",
                        "Upper-cases params.text.",
                        (p, c) -> com.fasterxml.jackson.databind.node.TextNode.valueOf(
                                p.path("text").asText().toUpperCase())))
                .build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                assertThat(client.listTools().tools())
                        .extracting(McpSchema.Tool::name)
                        .containsExactlyInAnyOrder(
                                "validate_plan", "run_plan", "get_run", "answer_input", "plan_schema", "list_tools");
                String plan = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"upper\", "
                        + "\"tool_params\": {\"text\": \"hi ${name}\"}, \"output_vars\": \"final_answer\"}}]";
                McpSchema.CallToolResult run =
                        call(client, "run_plan", "{\"plan\": " + plan + ", \"inputs\": {\"name\": \"ann\"}}");
                assertThat(run.isError()).isFalse();
                JsonNode outcome = JSON.valueToTree(run.structuredContent());
                assertThat(outcome.path("state").asText()).isEqualTo("succeeded");
                assertThat(outcome.path("result").asText()).isEqualTo("HI ANN");
                assertThat(outcome.path("trace"))
                        .singleElement()
                        .satisfies(s -> assertThat(s.path("type").asText()).isEqualTo("calling"));
                assertThat(text(run)).isEqualTo(outcome);
                McpSchema.CallToolResult stored = call(
                        client,
                        "get_run",
                        "{\"run_id\": \"" + outcome.path("id").asText() + "\"}");
                assertThat(JSON.valueToTree(stored.structuredContent())
                                .path("state")
                                .asText())
                        .isEqualTo("succeeded");
                String keptGoing = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"x\": \"${missing.y}\"}},"
                        + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"went on\"}}]";
                McpSchema.CallToolResult past =
                        call(client, "run_plan", "{\"plan\": " + keptGoing + ", \"keep_going\": true}");
                JsonNode completed = JSON.valueToTree(past.structuredContent());
                assertThat(completed.path("state").asText()).isEqualTo("completed_with_failures");
                assertThat(completed.path("result").asText()).isEqualTo("went on");
                assertThat(past.isError())
                        .as("a step failed, as the command line exits 1")
                        .isTrue();
                String map = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"upper\", "
                        + "\"for_each\": [\"a\", \"b\", \"c\"], \"as\": \"t\", \"tool_params\": {\"text\": \"${t}\"}, "
                        + "\"output_vars\": \"final_answer\"}}]";
                String mapped = JSON.valueToTree(call(client, "run_plan", "{\"plan\": " + map + "}")
                                .structuredContent())
                        .path("id")
                        .asText();
                JsonNode rows = text(call(client, "get_run", "{\"run_id\": \"" + mapped + "\", \"max_elements\": 1}"))
                        .at("/steps/0");
                assertThat(rows.path("elements")).as(rows.toString()).hasSize(1);
                assertThat(rows.path("elements_more").asInt()).isEqualTo(2);
                assertThat(text(call(client, "get_run", "{\"run_id\": \"" + mapped + "\"}"))
                                .at("/steps/0/elements"))
                        .as("all three rows by default")
                        .hasSize(3);
                McpSchema.CallToolResult tooMany =
                        call(client, "get_run", "{\"run_id\": \"" + mapped + "\", \"max_elements\": 1001}");
                assertThat(tooMany.isError()).isTrue();
                assertThat(((McpSchema.TextContent) tooMany.content().get(0)).text())
                        .as("refused by the tool's input schema")
                        .contains("max_elements");
                McpSchema.CallToolResult invalid =
                        call(client, "validate_plan", "{\"plan\": [{\"seq_no\": 0, \"type\": \"jump\"}]}");
                assertThat(invalid.isError()).isTrue();
                assertThat(text(invalid).path("diagnostics").findValuesAsText("line"))
                        .anyMatch(line ->
                                line.startsWith("plan.json: seq_no 0 at /0/type: unknown instruction type 'jump'"));
                McpSchema.CallToolResult reach =
                        call(client, "validate_plan", "{\"plan\": " + plan + ", \"reach\": true}");
                assertThat(reach.isError()).isFalse();
                assertThat(text(reach).at("/reach/tools/0/tool").asText()).isEqualTo("upper");
                assertThat(text(reach).at("/reach/tools/0/calls/0/params/text").findValuesAsText("kind"))
                        .containsExactlyInAnyOrder("literal", "input");
                McpSchema.CallToolResult missing = call(client, "get_run", "{\"run_id\": \"ffffffffffff\"}");
                assertThat(missing.isError()).isTrue();
                assertThat(text(missing).path("error").asText()).isEqualTo("no_such_run");
                assertThat(text(call(client, "list_tools", "{}")).path("tools").findValuesAsText("name"))
                        .as("the built-ins every VM has, and its own tools")
                        .containsExactly("human_input", "sleep", "upper");
            } finally {
                client.closeGracefully();
            }
        }
        assertThatThrownBy(() -> PlanMcpServer.http(null, "0.0.0.0", 0, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("loopback addresses only");
    }

    @Test
    void an_mcp_client_answers_a_run_waiting_for_input_after_a_wrong_answer() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                String plan =
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"human_input\", "
                                + "\"tool_params\": {\"prompt\": \"Ship it?\", \"choices\": [\"yes\", \"no\"]}, "
                                + "\"output_vars\": \"final_answer\"}}]";
                JsonNode waiting = JSON.valueToTree(
                        call(client, "run_plan", "{\"plan\": " + plan + "}").structuredContent());
                assertThat(waiting.path("state").asText()).isEqualTo("waiting");
                String id = waiting.path("id").asText();
                String callId = waiting.at("/pending/call_id").asText();
                assertThat(waiting.at("/pending/kind").asText()).isEqualTo("input");
                assertThat(waiting.at("/pending/params/prompt").asText()).isEqualTo("Ship it?");

                McpSchema.CallToolResult wrong = call(
                        client,
                        "answer_input",
                        "{\"run_id\": \"" + id + "\", \"call_id\": \"" + callId + "\", \"value\": \"maybe\"}");
                assertThat(wrong.isError()).isTrue();
                assertThat(text(wrong).path("message").asText())
                        .isEqualTo(
                                "run " + id + " keeps waiting: the answer \"maybe\" is not one of the choices yes, no");
                McpSchema.CallToolResult right = call(
                        client,
                        "answer_input",
                        "{\"run_id\": \"" + id + "\", \"call_id\": \"" + callId + "\", \"value\": \"yes\"}");
                assertThat(right.isError()).isFalse();
                JsonNode done = JSON.valueToTree(right.structuredContent());
                assertThat(done.path("state").asText()).isEqualTo("succeeded");
                assertThat(done.path("result").asText()).isEqualTo("yes");
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void an_mcp_answer_the_run_could_not_hold_is_a_tool_error_and_the_run_keeps_waiting() throws Exception {
        PlanVm vm = PlanVm.builder()
                .runLimits(dev.planvm.vm.run.RunLimits.DEFAULT.withMaxValueSize(1000))
                .build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                String plan =
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"human_input\", "
                                + "\"tool_params\": {\"prompt\": \"How much?\"}, \"output_vars\": \"final_answer\"}}]";
                JsonNode waiting = JSON.valueToTree(
                        call(client, "run_plan", "{\"plan\": " + plan + "}").structuredContent());
                String id = waiting.path("id").asText();
                String callId = waiting.at("/pending/call_id").asText();

                McpSchema.CallToolResult tooLarge = call(
                        client,
                        "answer_input",
                        "{\"run_id\": \"" + id + "\", \"call_id\": \"" + callId + "\", \"value\": \"" + "x".repeat(1001)
                                + "\"}");
                assertThat(tooLarge.isError()).isTrue();
                assertThat(text(tooLarge).path("message").asText())
                        .isEqualTo("run " + id + " keeps waiting: the answer is text of 1,001 characters; the limit for"
                                + " one value is 1,000");
                McpSchema.CallToolResult infinite = client.callTool(McpSchema.CallToolRequest.builder("answer_input")
                        .arguments(Map.of("run_id", id, "call_id", callId, "value", new java.math.BigDecimal("1e400")))
                        .build());
                assertThat(infinite.isError()).isTrue();
                assertThat(text(infinite).path("message").asText())
                        .startsWith("run " + id + " keeps waiting: the answer is the number ")
                        .endsWith(", which JSON cannot hold (a stored run could not keep it)");
                JsonNode stored = JSON.valueToTree(
                        call(client, "get_run", "{\"run_id\": \"" + id + "\"}").structuredContent());
                assertThat(stored.path("state").asText()).isEqualTo("waiting");

                McpSchema.CallToolResult right = call(
                        client,
                        "answer_input",
                        "{\"run_id\": \"" + id + "\", \"call_id\": \"" + callId + "\", \"value\": 42}");
                assertThat(right.isError()).isFalse();
                assertThat(JSON.valueToTree(right.structuredContent())
                                .path("result")
                                .asInt())
                        .isEqualTo(42);
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void an_mcp_client_sees_the_element_a_for_each_waits_for_and_answers_each_element_on_its_own() throws Exception {
        PlanVm vm = PlanVm.builder().build();
        try (RunStore store = RunStore.open(dir.resolve("runs.db"));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT);
                PlanMcpServer.Http server = PlanMcpServer.http(service, "127.0.0.1", 0, "test")) {
            McpSyncClient client = McpClients.of(server.port(), Duration.ofSeconds(30));
            try {
                client.initialize();
                String plan =
                        "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"human_input\", "
                                + "\"for_each\": [\"a\", \"b\"], \"as\": \"item\", \"tool_params\": {\"prompt\": "
                                + "\"Delete customer ${item}?\", \"choices\": [\"yes\", \"no\"]}, \"output_vars\": \"final_answer\"}}]";
                JsonNode waiting = JSON.valueToTree(
                        call(client, "run_plan", "{\"plan\": " + plan + "}").structuredContent());
                String id = waiting.path("id").asText();
                JsonNode stored = text(call(client, "get_run", "{\"run_id\": \"" + id + "\"}"));
                assertThat(stored.path("pending"))
                        .as("get_run names the element run_plan named")
                        .isEqualTo(waiting.path("pending"));
                assertThat(stored.at("/pending/element").asInt()).isZero();
                assertThat(stored.path("pending_calls").findValuesAsText("prompt"))
                        .containsExactly("Delete customer a?", "Delete customer b?");
                JsonNode second = JSON.valueToTree(call(
                                client,
                                "answer_input",
                                "{\"run_id\": \"" + id + "\", \"call_id\": \"step-1-element-1\", \"value\": \"no\"}")
                        .structuredContent());
                assertThat(second.path("state").asText())
                        .as("one answer answers one element")
                        .isEqualTo("waiting");
                assertThat(second.at("/pending/params/prompt").asText()).isEqualTo("Delete customer a?");
                JsonNode done = JSON.valueToTree(call(
                                client,
                                "answer_input",
                                "{\"run_id\": \"" + id + "\", \"call_id\": \"step-1-element-0\", \"value\": \"yes\"}")
                        .structuredContent());
                assertThat(done.path("result").toString()).isEqualTo("[\"yes\",\"no\"]");
            } finally {
                client.closeGracefully();
            }
        }
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, String args) throws Exception {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = JSON.readValue(args, Map.class);
        return client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(map).build());
    }

    private static JsonNode text(McpSchema.CallToolResult result) throws Exception {
        List<McpSchema.Content> content = result.content();
        return JSON.readTree(((McpSchema.TextContent) content.get(0)).text());
    }
}
