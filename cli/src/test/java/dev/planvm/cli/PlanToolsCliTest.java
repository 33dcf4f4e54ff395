package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --plan-tools DIR} and {@code planTools} in planvm.json: plans offered as tools (issue 23). */
class PlanToolsCliTest {

    @TempDir
    Path dir;

    private static final String GREET = """
            {"name": "greet", "description": "Greets someone",
             "inputs": {"type": "object", "properties": {"who": {"type": "string"}}, "required": ["who"]},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "Hello, ${who}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "Ann"}, "output_vars": ["g"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${g}!"}}]""";

    private Path write(String name, String text) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void a_plan_calls_a_plan_tool_from_the_flag_and_from_planvm_json_and_tools_lists_it() throws Exception {
        write("tools/greet.json", GREET);
        Path parent = write("parent.json", PARENT);
        CliRun run = CliRun.of(
                "run", parent.toString(), "--plan-tools", dir.resolve("tools").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("Hello, Ann!\n");

        Path config = write("planvm.json", "{\"planTools\": [\"tools\"]}");
        CliRun configured = CliRun.of("run", parent.toString(), "--config", config.toString());
        assertThat(configured.out()).as(configured.err()).isEqualTo("Hello, Ann!\n");

        CliRun tools = CliRun.of("tools", "--config", config.toString(), "--format", "json");
        assertThat(tools.exitCode()).as(tools.err()).isZero();
        assertThat(tools.out())
                .contains("\"name\" : \"greet\"")
                .contains("\"plan_tool\"")
                .contains("\"required\"");
    }

    @Test
    void plan_tools_that_reach_themselves_are_refused_with_exit_2_and_no_stack_trace() throws Exception {
        write("loop/a.json", """
                {"name": "a", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "a", "tool_params": {}, "output_vars": ["x"]}}]}""");
        Path parent = write("parent.json", PARENT);
        CliRun run = CliRun.of(
                "run", parent.toString(), "--plan-tools", dir.resolve("loop").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("plan tool 'a' calls itself").doesNotContain("\tat ");
    }

    @Test
    void max_plan_depth_bounds_how_deep_plan_tools_call_plan_tools() throws Exception {
        write("chain/greet.json", GREET);
        write("chain/welcome.json", """
                {"name": "welcome", "inputs": {"type": "object", "properties": {"who": {"type": "string"}}},
                 "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "${who}"}, "output_vars": ["g"]}},
                          {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${g}, welcome"}}]}""");
        Path parent = write("parent.json", PARENT.replace("\"greet\"", "\"welcome\""));
        String tools = dir.resolve("chain").toString();

        CliRun deepEnough = CliRun.of("run", parent.toString(), "--plan-tools", tools, "--max-plan-depth", "1");
        assertThat(deepEnough.exitCode()).as(deepEnough.err()).isZero();
        assertThat(deepEnough.out()).isEqualTo("Hello, Ann, welcome!\n");

        CliRun tooDeep = CliRun.of("run", parent.toString(), "--plan-tools", tools, "--max-plan-depth", "0");
        assertThat(tooDeep.exitCode()).isEqualTo(2);
        assertThat(tooDeep.err())
                .contains("plan tool 'welcome' calls plan tools 1 deep (welcome → greet); the limit is 0")
                .doesNotContain("\tat ");

        CliRun negative = CliRun.of("run", parent.toString(), "--plan-tools", tools, "--max-plan-depth", "-1");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("--max-plan-depth must be between 0 and 1000, not -1");
    }
}
