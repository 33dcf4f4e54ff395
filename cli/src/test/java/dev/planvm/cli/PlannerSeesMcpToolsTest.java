package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import dev.planvm.llm.PlannerTool;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm plan} and {@code planvm ask} offer the planner every tool {@code planvm tools} lists,
 * the tools of configured MCP servers included (a real server on stdio, started for the listing), each
 * with its params schema; a plan that calls them is valid and runs.
 */
class PlannerSeesMcpToolsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private FakeOpenAiServer llm;
    private Map<String, String> environment;
    private Path config;

    @BeforeEach
    void start() throws Exception {
        llm = FakeOpenAiServer.start();
        environment = Map.of(
                "OPENAI_BASE_URL",
                llm.baseUrl(),
                "PLANVM_LLM_TIMEOUT_SECONDS",
                "20",
                "PLANVM_STORE",
                dir.resolve("runs.db").toString());
        ObjectNode document = Configs.JSON.createObjectNode();
        document.putObject("mcpServers").set("svc", Configs.stdioServer());
        config = Configs.write(dir, document);
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    private static String planCalling(String tool) {
        return """
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "tool_params": {"key": "k"}, "output_vars": ["r"]}},
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r.value}"}}]}""".formatted(tool);
    }

    /** The prompt the planner sent: every message's content, one after the other. */
    private String prompt() {
        StringBuilder text = new StringBuilder();
        for (JsonNode message : llm.requests().get(0).path("messages")) {
            text.append(message.path("content").asText()).append('\n');
        }
        return text.toString();
    }

    @Test
    void plan_offers_every_tool_planvm_tools_lists_with_its_schema() throws Exception {
        CliRun tools = CliRun.withEnvironment(environment, "tools", "--format", "json", "--config", config.toString());
        assertThat(tools.exitCode()).as(tools.err()).isZero();
        List<JsonNode> listed = new ArrayList<>();
        MAPPER.readTree(tools.out()).path("tools").forEach(listed::add);
        assertThat(listed).extracting(t -> t.path("name").asText()).contains("svc:lookup", "lookup", "svc:write");

        llm.reply(planCalling("svc:lookup"));
        CliRun plan = CliRun.withEnvironment(
                environment, "plan", "Look k up", "--format", "json", "--config", config.toString());

        assertThat(plan.exitCode()).as(plan.err()).isZero();
        assertThat(MAPPER.readTree(plan.out())).isEqualTo(MAPPER.readTree(planCalling("svc:lookup")));
        String prompt = prompt();
        for (JsonNode tool : listed) {
            String name = tool.path("name").asText();
            if (name.equals(PlannerTool.NAME)) {
                continue;
            }
            assertThat(prompt).as("the planner is offered " + name).contains("- " + name + ":");
            assertThat(prompt)
                    .as("with its params schema")
                    .contains(name + ": " + tool.path("description").asText().strip() + "\n  params schema: "
                            + tool.path("params_schema"));
        }
    }

    @Test
    void ask_plans_with_an_mcp_tool_and_runs_the_plan() {
        llm.reply(planCalling("lookup"));
        CliRun ask = CliRun.withEnvironment(
                environment, "ask", "Look k up", "--format", "json", "--no-store", "--config", config.toString());

        assertThat(ask.exitCode()).as(ask.err()).isZero();
        assertThat(ask.out()).isEqualTo("v-k\n");
        assertThat(prompt()).contains("- svc:lookup:").contains("- lookup:");
    }
}
