package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.llm.testing.FakeOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm ask} offers the planner the plan tools ({@code --plan-tools}) like any tool, with their
 * inputs schema; the plan it answers calls one, which runs as a child run.
 */
class PlannerSeesPlanToolsTest {

    @TempDir
    Path dir;

    private FakeOpenAiServer llm;

    @BeforeEach
    void start() {
        llm = FakeOpenAiServer.start();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    private static final String GREET = """
            {"name": "greet", "description": "Greets someone by name",
             "inputs": {"type": "object", "properties": {"who": {"type": "string"}}, "required": ["who"]},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "Hello, ${who}"}}]}""";

    @Test
    void ask_offers_a_plan_tool_with_its_inputs_schema_and_runs_the_plan_that_calls_it() throws Exception {
        Path tools = Files.createDirectories(dir.resolve("tools"));
        Files.writeString(tools.resolve("greet.json"), GREET);
        llm.reply("""
                {"plan": [
                  {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "Ann"}, "output_vars": ["g"]}},
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${g}!"}}]}""");
        CliRun ask = CliRun.withEnvironment(
                Map.of("OPENAI_BASE_URL", llm.baseUrl(), "PLANVM_LLM_TIMEOUT_SECONDS", "20"),
                "ask",
                "Greet Ann",
                "--no-store",
                "--plan-tools",
                tools.toString());

        assertThat(ask.exitCode()).as(ask.err()).isZero();
        assertThat(ask.out()).isEqualTo("Hello, Ann!\n");
        StringBuilder prompt = new StringBuilder();
        for (JsonNode message : llm.requests().get(0).path("messages")) {
            prompt.append(message.path("content").asText()).append('\n');
        }
        assertThat(prompt.toString())
                .contains(
                        "- greet: Greets someone by name\n  params schema: "
                                + "{\"type\":\"object\",\"properties\":{\"who\":{\"type\":\"string\"}},\"required\":[\"who\"]}");
    }
}
