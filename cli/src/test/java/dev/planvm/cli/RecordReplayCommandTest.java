package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordReplayCommandTest {

    @TempDir
    Path dir;

    private static final String CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "vector_search", "params": {"query": "tidb", "top_k": 2}, "output": [{"content": "TiDB is a database"}], "duration_ms": 5},
              {"type": "condition", "prompt": "Enough?", "context": [{"content": "TiDB is a database"}], "result": true, "explanation": "yes", "duration_ms": 5}]}""";

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "${q}", "top_k": 2}, "output_vars": ["docs"]}},
             {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Enough?", "context": "${docs}", "jump_if_true": 4}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "not enough"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 5}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${docs[0].content}"}},
             {"seq_no": 5, "type": "reasoning", "parameters": {"chain_of_thoughts": "done"}}]""";

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file.toString();
    }

    @Test
    void replay_answers_tools_that_are_not_installed_and_llm_conditions_without_an_llm() throws Exception {
        CliRun run = CliRun.of("run", write("p.json", PLAN), "--var", "q=tidb", "--replay", write("c.json", CASSETTE));
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("TiDB is a database\n");
    }

    @Test
    void a_call_the_cassette_does_not_have_exits_1_with_the_closest_recording() throws Exception {
        CliRun run = CliRun.of("run", write("p.json", PLAN), "--var", "q=mysql", "--replay", write("c.json", CASSETTE));
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("seq_no 0 (calling): tool 'vector_search' failed: the cassette has no recorded interaction")
                .contains("/params/query: recorded \"tidb\", got \"mysql\"");
    }

    @Test
    void replay_timing_waits_the_recorded_durations() throws Exception {
        String slow = CASSETTE.replace("\"duration_ms\": 5", "\"duration_ms\": 200");
        long start = System.nanoTime();
        CliRun run = CliRun.of(
                "run", write("p.json", PLAN), "--var", "q=tidb", "--replay", write("c.json", slow), "--replay-timing");
        assertThat(run.exitCode()).isZero();
        assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(400);
    }

    @Test
    void record_and_replay_exclude_each_other() throws Exception {
        CliRun run = CliRun.of("run", write("p.json", PLAN), "--record", "a.json", "--replay", "b.json");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("mutually exclusive");
    }

    @Test
    void a_missing_or_broken_cassette_exits_2() throws Exception {
        CliRun missing = CliRun.of(
                "run",
                write("p.json", PLAN),
                "--replay",
                dir.resolve("none.json").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("cassette not found");
        CliRun broken = CliRun.of("run", write("p.json", PLAN), "--replay", write("bad.json", "{\"format\": 1}"));
        assertThat(broken.exitCode()).isEqualTo(2);
        assertThat(broken.err()).contains("not a cassette");
    }

    @Test
    void dry_run_needs_no_tool_and_no_llm_and_marks_placeholders_in_the_trace() throws Exception {
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.of("run", write("p.json", PLAN), "--var", "q=x", "--dry-run", "--trace", trace.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("not enough\n");
        JsonNode steps = new ObjectMapper().readTree(trace.toFile()).path("steps");
        assertThat(steps.get(0).at("/inputs/placeholder").asBoolean()).isTrue();
        assertThat(steps.get(0).at("/writes/docs").asText()).isEqualTo("<dry-run seq_no 0 vector_search>");
        assertThat(steps.get(1).at("/inputs/placeholder").asBoolean()).isTrue();
        assertThat(steps.get(2).at("/inputs/placeholder").isMissingNode()).isTrue();
    }

    @Test
    void dry_run_conditions_choose_the_branch_a_dry_run_takes() throws Exception {
        CliRun run =
                CliRun.of("run", write("p.json", PLAN), "--var", "q=x", "--dry-run", "--dry-run-conditions", "true");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("seq_no 4 (assign)").contains("'docs' is text");
    }

    @Test
    void a_plan_needing_an_llm_without_one_configured_is_refused_naming_the_variables() throws Exception {
        String plan = write("p.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "hi"}, "output_vars": "final_answer"}}]""");
        CliRun run = CliRun.withEnvironment(Map.of(), "run", plan);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .contains("seq_no 0: tool 'llm_generate' is not installed")
                .contains("OPENAI_API_KEY")
                .contains("OPENAI_BASE_URL");
    }
}
