package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {

    @TempDir
    Path dir;

    private Path write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    @Test
    void a_valid_plan_exits_0_and_says_ok_on_stdout() throws Exception {
        Path plan = write("ok.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun run = CliRun.of("validate", plan.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(plan + ": ok (1 instruction)\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void an_invalid_plan_exits_2_with_every_error_on_stdout_and_warnings_on_stderr() throws Exception {
        Path plan = write("bad.json", """
                [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 5}},
                 {"seq_no": 2, "type": "asign", "parameters": {"x": 1}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${x}"}, "note": "extra"}]""");
        CliRun run = CliRun.of("validate", plan.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out().lines())
                .containsExactly(
                        plan
                                + ": seq_no 0 at /0/parameters/target_seq: jump target 5 is not a seq_no of this plan (they run from 0 to 3)",
                        plan + ": seq_no 2 at /1/type: unknown instruction type 'asign': did you mean 'assign'?");
        assertThat(run.err().lines())
                .containsExactly(
                        "warning: " + plan + ": seq_no 2 at /1/seq_no: seq_no skips from 0 to 2",
                        "warning: " + plan + ": seq_no 3 at /2/note: unknown key 'note' is ignored");
    }

    @Test
    void declared_inputs_make_a_read_of_neither_an_input_nor_an_assigned_variable_an_error() throws Exception {
        Path plan = write("inputs.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${topic} ${tone}"}}]""");
        assertThat(CliRun.of("validate", plan.toString()).exitCode()).isZero();
        assertThat(CliRun.of("validate", plan.toString(), "--input", "topic,tone")
                        .exitCode())
                .isZero();
        CliRun declared = CliRun.of("validate", plan.toString(), "--input", "topic");
        assertThat(declared.exitCode()).isEqualTo(2);
        assertThat(declared.out())
                .contains(plan + ": seq_no 0 at /0/parameters/final_answer: ${tone} reads 'tone', which no instruction"
                        + " assigns and the plan's inputs (topic) do not name");
    }

    @Test
    void literal_params_are_checked_against_the_schema_of_the_plan_tool_or_built_in_they_go_to() throws Exception {
        Files.createDirectories(dir.resolve("tools"));
        write("tools/headline.json", """
                {"name": "headline", "inputs": {"type": "object", "properties": {"topic": {"type": "string"}},
                 "required": ["topic"]}, "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${topic}"}}]}""");
        Path plan = write("calls.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "headline", "tool_params": {"subject": "x"}, "output_vars": ["a"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "headline", "tool_params": {"other": "${a}"}, "output_vars": ["b"]}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"secs": 1}, "output_vars": ["c"]}},
                 {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "headline", "tool_params": {"topic": "${a}"}, "output_vars": ["d"]}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${b} ${c} ${d}"}}]""");

        CliRun run = CliRun.of(
                "validate",
                plan.toString(),
                "--plan-tools",
                dir.resolve("tools").toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out().lines())
                .containsExactly(
                        plan + ": seq_no 0 at /0/parameters: params do not fit the schema of tool 'headline':"
                                + " required property 'topic' not found",
                        plan + ": seq_no 1 at /1/parameters: params do not fit the schema of tool 'headline':"
                                + " required property 'topic' not found",
                        plan + ": seq_no 2 at /2/parameters: params do not fit the schema of tool 'sleep': sleep takes"
                                + " exactly one of seconds (a number) and until (an ISO-8601 time), not {\"secs\":1}");
    }

    @Test
    void several_files_exit_2_when_any_is_invalid() throws Exception {
        Path good =
                write("good.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Path bad = write("bad.json", "[{\"seq_no\": 0}]");
        CliRun run = CliRun.of("validate", good.toString(), bad.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).contains(good + ": ok").contains(bad + ": seq_no 0 at /0: missing required key 'type'");
    }

    @Test
    void malformed_json_reports_line_and_column() throws Exception {
        Path plan = write("broken.json", "[\n  {\"seq_no\": 0,,}\n]");
        CliRun run = CliRun.of("validate", plan.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).startsWith(plan + ": malformed JSON at line 2, column 16: ");
    }

    @Test
    void missing_and_empty_files_say_so_without_a_stack_trace() throws Exception {
        Path empty = write("empty.json", "");
        CliRun missing = CliRun.of("validate", dir.resolve("nope.json").toString(), empty.toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.json: no such file or directory");
        CliRun run = CliRun.of("validate", empty.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).contains("empty.json: the file is empty; a plan is a JSON array of instructions");
        assertThat(run.out() + run.err() + missing.err())
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }

    @Test
    void quiet_prints_errors_only() throws Exception {
        Path plan = write("w.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"x\": 1}}]");
        CliRun run = CliRun.of("validate", "--quiet", plan.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEmpty();
    }

    @Test
    void json_format_lists_every_diagnostic_with_its_location() throws Exception {
        Path plan = write("j.json", "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 9}}]");
        CliRun run = CliRun.of("validate", "--format", "json", plan.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        JsonNode report = new ObjectMapper().readTree(run.out());
        assertThat(report.path("valid").asBoolean()).isFalse();
        JsonNode error = report.at("/files/0/diagnostics/0");
        assertThat(error.path("severity").asText()).isEqualTo("error");
        assertThat(error.path("seq_no").asInt()).isZero();
        assertThat(error.path("pointer").asText()).isEqualTo("/0/parameters/target_seq");
        assertThat(error.path("message").asText()).startsWith("jump target 9 is not a seq_no");
    }

    @Test
    void no_file_is_a_usage_error_with_exit_2() {
        CliRun run = CliRun.of("validate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Missing required parameter: 'PATH'").contains("(see planvm validate --help)");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void an_unknown_option_is_a_usage_error_with_exit_2() {
        CliRun run = CliRun.of("validate", "--bogus", "x.json");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Unknown option: '--bogus'");
    }

    @Test
    void a_directory_stands_for_its_plan_files_but_not_their_cassettes_and_expectations() throws Exception {
        Path plans = Files.createDirectory(dir.resolve("plans"));
        Files.writeString(
                plans.resolve("b.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Files.writeString(
                plans.resolve("a.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 2}}]");
        Files.writeString(
                plans.resolve("a.cassette.json"), "{\"format\": \"planvm-cassette/1\", \"interactions\": []}");
        Files.writeString(plans.resolve("a.expected.json"), "{\"final_answer\": 2}");
        Files.writeString(plans.resolve("notes.txt"), "not a plan");
        CliRun run = CliRun.of("validate", plans.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().lines())
                .containsExactly(
                        plans.resolve("a.json") + ": ok (1 instruction)",
                        plans.resolve("b.json") + ": ok (1 instruction)");
    }

    @Test
    void a_plan_calling_a_denied_tool_is_refused_at_validation() throws Exception {
        Path plan = write("search.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "web_search", "output_vars": "r"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r}"}}]""");
        CliRun denied = CliRun.of("validate", plan.toString(), "--deny-tools", "web_*");
        assertThat(denied.exitCode()).isEqualTo(2);
        assertThat(denied.out())
                .contains(plan + ": seq_no 0 at /0/parameters: tool 'web_search' is denied by the tool policy");
        assertThat(CliRun.of("validate", plan.toString(), "--allow-tools", "web_*")
                        .exitCode())
                .isZero();
        assertThat(CliRun.of("validate", plan.toString()).exitCode()).isZero();
    }
}
