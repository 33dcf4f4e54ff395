package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {

    @TempDir
    Path dir;

    private String plan(String name, String json) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, json);
        return file.toString();
    }

    @Test
    void a_text_answer_is_printed_raw_and_exits_0() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"Hello ${name}\"}}]");
        CliRun run = CliRun.of("run", plan, "--var", "name=World");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("Hello World\n");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void a_plan_ending_in_use_prints_its_value_marks_it_and_exits_4() throws Exception {
        String plan = plan("use.js", "docs = ['a', 'b'];\nuse docs;\n");
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.of("run", plan, "--no-store", "--trace", trace.toString());
        assertThat(run.exitCode()).isEqualTo(4);
        assertThat(run.out()).isEqualTo("[\"a\",\"b\"]\n");
        assertThat(run.err())
                .isEqualTo(plan + ": the plan ends in use: the value printed goes back to the LLM that wrote the plan"
                        + " (exit 4)\n");
        assertThat(new ObjectMapper().readTree(trace.toFile()).path("use").asBoolean())
                .isTrue();

        CliRun returned = CliRun.of("run", plan("return.js", "return ['a'];\n"), "--no-store");
        assertThat(returned.exitCode()).isZero();
        assertThat(returned.err()).isEmpty();
    }

    @Test
    void batch_and_show_mark_a_plan_ending_in_use_and_no_other() throws Exception {
        String used = plan("use.js", "docs = ['a', 'b'];\nuse docs;\n");
        String returned = plan("return.js", "return ['a'];\n");
        ObjectMapper json = new ObjectMapper();
        CliRun batch = CliRun.of("batch", used, returned);
        assertThat(batch.exitCode()).as(batch.err()).isZero();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : batch.out().strip().split("\n")) {
            lines.add(json.readTree(line));
        }
        JsonNode usedLine = lines.stream()
                .filter(l -> l.path("file").asText().endsWith("use.js"))
                .findFirst()
                .orElseThrow();
        JsonNode returnedLine = lines.stream()
                .filter(l -> l.path("file").asText().endsWith("return.js"))
                .findFirst()
                .orElseThrow();
        assertThat(usedLine.path("use").asBoolean()).as(usedLine.toString()).isTrue();
        assertThat(usedLine.path("final_answer").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(returnedLine.has("use")).as(returnedLine.toString()).isFalse();

        Map<String, String> store =
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString());
        CliRun run = CliRun.withEnvironment(store, "run", used, "--verbose");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(4);
        String id =
                run.err().replaceAll("(?s).*run (\\w+) is stored in.*", "$1").trim();
        CliRun shown = CliRun.withEnvironment(store, "show", id);
        assertThat(shown.exitCode()).as(shown.err()).isZero();
        assertThat(json.readTree(shown.out()).path("use").asBoolean()).isTrue();
        CliRun plain = CliRun.withEnvironment(store, "run", returned, "--verbose");
        String other =
                plain.err().replaceAll("(?s).*run (\\w+) is stored in.*", "$1").trim();
        assertThat(json.readTree(CliRun.withEnvironment(store, "show", other).out())
                        .has("use"))
                .isFalse();
    }

    @Test
    void any_other_answer_is_printed_as_compact_json() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": {\"n\": \"${n}\", \"list\": [1, 2]}}}]");
        CliRun run = CliRun.of("run", plan, "--var", "n=41.5");
        assertThat(run.out()).isEqualTo("{\"n\":41.5,\"list\":[1,2]}\n");
    }

    @Test
    void var_values_are_json_when_they_parse_and_text_otherwise() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": [\"${a}\", \"${b}\", \"${c}\", \"${d}\"]}}]");
        CliRun run = CliRun.of(
                "run", plan, "--var", "a=42", "--var", "b=hello world", "--var", "c={\"k\":true}", "--var", "d=\"42\"");
        assertThat(run.out()).isEqualTo("[42,\"hello world\",{\"k\":true},\"42\"]\n");
    }

    @Test
    void a_runtime_failure_exits_1_naming_seq_no_type_and_cause_without_a_stack_trace() throws Exception {
        String plan = plan("p.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"x": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${missing}"}}]""");
        CliRun run = CliRun.of("run", plan);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(plan + ": seq_no 1 (assign): ").contains("'missing' is not set");
        assertThat(run.err()).doesNotContain("\tat ");
    }

    @Test
    void verbose_adds_the_stack_trace_of_a_failure() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${missing}\"}}]");
        CliRun run = CliRun.of("run", "--verbose", plan);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("\tat ");
    }

    @Test
    void an_invalid_plan_exits_2_with_its_errors() throws Exception {
        String plan = plan("p.json", "[{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 4}}]");
        CliRun run = CliRun.of("run", plan);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("seq_no 0 at /0/parameters/target_seq: jump target 4 is not a seq_no");
    }

    @Test
    void a_plan_calling_an_unknown_tool_exits_2_before_running() throws Exception {
        String plan = plan("p.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "q"}, "output_vars": ["docs"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${docs}"}}]""");
        CliRun run = CliRun.of("run", plan);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("seq_no 0: tool 'vector_search' is not installed");
    }

    @Test
    void a_bad_var_is_a_usage_error() throws Exception {
        String plan = plan("p.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun run = CliRun.of("run", plan, "--var", "not a name=1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--var not a name=1: expected NAME=VALUE");
    }

    @Test
    void max_steps_stops_an_unguarded_loop_with_exit_1() throws Exception {
        String plan = plan("p.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"n": 0}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"target_seq": 0}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${n}"}}]""");
        CliRun run = CliRun.of("run", plan, "--max-steps", "10");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("exceeded the limit of 10 steps (--max-steps)");
    }

    @Test
    void strict_fails_a_run_that_never_sets_final_answer() throws Exception {
        String plan = plan("p.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"result\": 1}}]");
        CliRun lenient = CliRun.of("run", plan);
        assertThat(lenient.exitCode()).isZero();
        assertThat(lenient.out()).isEqualTo("null\n");
        assertThat(lenient.err()).contains("warning: ").contains("final_answer was never set");
        CliRun strict = CliRun.of("run", plan, "--strict");
        assertThat(strict.exitCode()).isEqualTo(1);
        assertThat(strict.err()).contains("final_answer was never set, so the result is null (--strict)");
    }

    @Test
    void trace_is_written_on_success_and_on_failure() throws Exception {
        String ok = plan("ok.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 7}}]");
        String bad = plan(
                "bad.json", "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${nope}\"}}]");
        Path okTrace = dir.resolve("out/ok-trace.json");
        Path badTrace = dir.resolve("bad-trace.json");
        assertThat(CliRun.of("run", ok, "--trace", okTrace.toString()).exitCode())
                .isZero();
        assertThat(CliRun.of("run", bad, "--trace", badTrace.toString()).exitCode())
                .isEqualTo(1);
        ObjectMapper mapper = new ObjectMapper();
        JsonNode okDoc = mapper.readTree(okTrace.toFile());
        assertThat(okDoc.path("status").asText()).isEqualTo("succeeded");
        assertThat(okDoc.path("result").asInt()).isEqualTo(7);
        assertThat(okDoc.path("steps")).hasSize(1);
        JsonNode badDoc = mapper.readTree(badTrace.toFile());
        assertThat(badDoc.path("status").asText()).isEqualTo("failed");
        assertThat(badDoc.at("/error/seq_no").asInt()).isZero();
        assertThat(badDoc.at("/steps/0/error").asText()).contains("nope");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
    }
}
