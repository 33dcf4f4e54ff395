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
    void a_plan_tool_that_reaches_itself_refuses_only_the_plans_that_reach_it_in_validate_and_run_alike()
            throws Exception {
        write("loop/a.json", """
                {"name": "a", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "a", "tool_params": {}, "output_vars": ["x"]}}]}""");
        write("loop/greet.json", GREET);
        write("loop/broken.json", """
                {"name": "broken", "plan": [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 7}}]}""");
        String loop = dir.resolve("loop").toString();
        Path parent = write("parent.json", PARENT);
        Path reachesA = write("reaches-a.json", PARENT.replace("\"greet\"", "\"a\""));

        CliRun fine = CliRun.of("run", parent.toString(), "--plan-tools", loop);
        assertThat(fine.exitCode())
                .as("a plan that reaches no unusable plan tool runs: " + fine.err())
                .isZero();
        assertThat(fine.out()).isEqualTo("Hello, Ann!\n");
        assertThat(CliRun.of("validate", parent.toString(), "--plan-tools", loop)
                        .exitCode())
                .isZero();

        CliRun run = CliRun.of("run", reachesA.toString(), "--plan-tools", loop);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .isEqualTo(reachesA + ": seq_no 0 at /0/parameters: plan tool 'a' cannot be used: it calls itself: a"
                        + " plan tool may not reach itself\n");
        CliRun validate = CliRun.of("validate", reachesA.toString(), loop + "/a.json", "--plan-tools", loop);
        assertThat(validate.exitCode()).as("validate refuses what run refuses").isEqualTo(2);
        assertThat(validate.out())
                .contains(reachesA + ": seq_no 0 at /0/parameters: plan tool 'a' cannot be used: it calls itself")
                .contains(loop + "/a.json: seq_no 0 at /plan/0/parameters: plan tool 'a' cannot be used: it calls"
                        + " itself");

        CliRun tools = CliRun.of("tools", "--plan-tools", loop);
        assertThat(tools.exitCode()).isZero();
        assertThat(tools.out())
                .contains("greet (plan tool: " + loop + "/greet.json)")
                .contains("a (plan tool, not available: it calls itself: a plan tool may not reach itself)")
                .contains("broken (plan tool, not available: " + loop + "/broken.json: seq_no 0 at"
                        + " /plan/0/parameters/target_seq: jump target 7 is not a seq_no of this plan");
        CliRun json = CliRun.of("tools", "--plan-tools", loop, "--format", "json");
        assertThat(json.out()).contains("\"a\" : \"plan tool: it calls itself: a plan tool may not reach itself\"");
    }

    @Test
    void answer_resume_and_rerun_need_no_plan_tools_flag_and_run_the_plan_tools_the_run_started_with()
            throws Exception {
        write("kept/greet.json", GREET);
        Path parent = write("asks.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Who?"}, "output_vars": "who"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "${who}"}, "output_vars": ["g"]}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${g}!"}}]""");
        String store = dir.resolve("runs.db").toString();
        CliRun waiting = CliRun.of(
                "run", parent.toString(), "--plan-tools", dir.resolve("kept").toString(), "--store", store);
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String id = waiting.err()
                .lines()
                .filter(line -> line.startsWith("run "))
                .findFirst()
                .orElseThrow()
                .split(" ")[1];
        write("kept/greet.json", GREET.replace("Hello, ${who}", "Bye, ${who}")); // edited after the run started

        CliRun answered = CliRun.of("answer", id, "--text", "Ann", "--store", store);
        assertThat(answered.exitCode()).as(answered.err()).isZero();
        assertThat(answered.out()).isEqualTo("Hello, Ann!\n");

        CliRun rerun = CliRun.of("rerun", id, "--from", "1", "--store", store);
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).isEqualTo("Hello, Ann!\n");
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
                .contains("plan tool 'welcome' cannot be used: it calls plan tools 1 deep (welcome → greet); the"
                        + " limit is 0")
                .doesNotContain("\tat ");

        CliRun negative = CliRun.of("run", parent.toString(), "--plan-tools", tools, "--max-plan-depth", "-1");
        assertThat(negative.exitCode()).isEqualTo(2);
        assertThat(negative.err()).contains("--max-plan-depth must be between 0 and 1000, not -1");
    }
}
