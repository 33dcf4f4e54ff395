package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay needs only the calls the run actually makes: a branching plan replays from the
 * recording of one branch (with a warning naming what the cassette does not cover), in
 * {@code run}, {@code batch --replay-dir} and {@code test}, and {@code rerun --from SEQ --replay}
 * needs only what is left to run.
 */
class ReplayCoverageCommandTest {

    /** The quick branch calls llm_generate; the deep branch calls vector_search, which the recording never reached. */
    private static final String BRANCHING = """
            [{"seq_no": 0, "type": "jmp", "parameters": {"condition": "${deep}", "jump_if_true": 3}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "quick"}, "output_vars": "final_answer"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 4}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "deep"}, "output_vars": "final_answer"}},
             {"seq_no": 4, "type": "reasoning", "parameters": {"chain_of_thoughts": "done"}}]""";

    private static final String QUICK_RECORDING = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "llm_generate", "params": {"prompt": "quick"}, "output": "a quick answer", "duration_ms": 3}]}""";

    private static final String SEARCH_THEN_SUMMARIZE = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "tidb"}, "output_vars": ["docs"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate",
               "tool_params": {"prompt": "Summarize for ${audience}", "context": "${docs}"}, "output_vars": "final_answer"}}]""";

    private static final String SEARCH_THEN_SUMMARIZE_RECORDING = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "vector_search", "params": {"query": "tidb"}, "output": [{"content": "TiDB is a database"}], "duration_ms": 3},
              {"type": "tool", "tool": "llm_generate", "params": {"prompt": "Summarize for DBAs", "context": [{"content": "TiDB is a database"}]},
               "output": "TiDB, for DBAs", "duration_ms": 3}]}""";

    @TempDir
    Path dir;

    private String write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        return file.toString();
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    @Test
    void run_replays_a_branching_plan_from_the_recording_of_one_branch_and_warns_what_it_does_not_cover()
            throws Exception {
        String plan = write("branching.json", BRANCHING);
        CliRun run = planvm(
                "run", plan, "--var", "deep=false", "--replay", write("branching.cassette.json", QUICK_RECORDING));
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("a quick answer\n");
        assertThat(run.err())
                .isEqualTo(
                        "warning: " + plan
                                + ": seq_no 3: tool 'vector_search' is not in the cassette: a call to it fails as a cassette miss\n");
    }

    @Test
    void a_call_the_run_actually_makes_to_a_tool_the_cassette_lacks_is_a_cassette_miss() throws Exception {
        CliRun run = planvm(
                "run",
                write("branching.json", BRANCHING),
                "--var",
                "deep=true",
                "--replay",
                write("branching.cassette.json", QUICK_RECORDING));
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("seq_no 3 (calling): tool 'vector_search' failed: the cassette has no recorded "
                        + "interaction for tool 'vector_search'");
    }

    @Test
    void batch_replay_dir_runs_the_branching_plan_instead_of_rejecting_it() throws Exception {
        write("plans/branching.json", BRANCHING);
        write("plans/branching.cassette.json", QUICK_RECORDING);
        CliRun run = planvm(
                "batch",
                dir.resolve("plans").toString(),
                "--replay-dir",
                dir.resolve("plans").toString(),
                "--var",
                "deep=false");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        var line = new ObjectMapper().readTree(run.out());
        assertThat(line.path("status").asText()).isEqualTo("succeeded");
        assertThat(line.path("final_answer").asText()).isEqualTo("a quick answer");
    }

    @Test
    void test_passes_the_branching_plan_replayed_from_its_recording() throws Exception {
        write("plans/branching.json", BRANCHING);
        write("plans/branching.cassette.json", QUICK_RECORDING);
        write("plans/branching.expected.json", "{\"final_answer\": \"a quick answer\"}");
        CliRun run = planvm("test", dir.resolve("plans").toString(), "--var", "deep=false");
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("PASS ").endsWith("1 passed, 0 failed\n");
    }

    @Test
    void rerun_from_the_last_step_under_replay_fixes_an_input_although_earlier_calls_are_used_up() throws Exception {
        String cassette = write("c.json", SEARCH_THEN_SUMMARIZE_RECORDING);
        CliRun failed =
                planvm("run", write("p.json", SEARCH_THEN_SUMMARIZE), "--var", "audience=devs", "--replay", cassette);
        assertThat(failed.exitCode()).as(failed.err()).isEqualTo(1);
        assertThat(failed.err())
                .contains("seq_no 1 (calling): tool 'llm_generate' failed: the cassette has no recorded");
        String id =
                failed.err().replaceAll("(?s).*planvm resume (\\w+).*", "$1").trim();

        CliRun rerun = planvm("rerun", id, "--from", "1", "--var", "audience=DBAs", "--replay", cassette);

        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).isEqualTo("TiDB, for DBAs\n");
        assertThat(rerun.err())
                .contains("rerun of " + id + " from seq_no 1 (1 committed steps kept)")
                .doesNotContain("warning");
    }
}
