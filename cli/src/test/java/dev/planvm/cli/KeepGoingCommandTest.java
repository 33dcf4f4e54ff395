package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeepGoingCommandTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"x": "${missing.y}"}},
             {"seq_no": 1, "type": "assign", "parameters": {"y": "${other}"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "went on"}}]""";

    @TempDir
    Path dir;

    private String plan(String json) throws Exception {
        Path file = dir.resolve("p.json");
        Files.writeString(file, json);
        return file.toString();
    }

    @Test
    void keep_going_reports_every_failed_step_prints_the_answer_and_exits_1() throws Exception {
        String plan = plan(PLAN);
        Path trace = dir.resolve("trace.json");
        CliRun run = CliRun.of("run", "--keep-going", "--no-store", "--trace", trace.toString(), plan);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEqualTo("went on\n");
        assertThat(run.err().lines()).hasSize(3).satisfies(lines -> {
            assertThat(lines.get(0))
                    .startsWith(plan + ": seq_no 0 (assign) failed, step_failed, and the run went on: ");
            assertThat(lines.get(1)).startsWith(plan + ": seq_no 1 (assign) failed, step_failed");
            assertThat(lines.get(2))
                    .isEqualTo(plan + ": 2 steps failed (--keep-going): the run completed_with_failures");
        });
        assertThat(run.err()).doesNotContain("\tat ");
        JsonNode document = new ObjectMapper().readTree(trace.toFile());
        assertThat(document.path("status").asText()).isEqualTo("completed_with_failures");
        assertThat(document.path("failed_steps")).hasSize(2);
        assertThat(document.at("/failed_steps/0/seq_no").asInt()).isZero();
        assertThat(document.at("/failed_steps/0/kind").asText()).isEqualTo("step_failed");
        assertThat(document.at("/steps/1/handled").asText()).isEqualTo("keep_going");
    }

    @Test
    void a_batch_that_keeps_going_lists_each_plans_failed_steps_and_exits_1() throws Exception {
        String failing = plan(PLAN);
        Path clean = dir.resolve("q.json");
        Files.writeString(clean, """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "fine"}}]""");
        CliRun batch = CliRun.of("batch", "--keep-going", failing, clean.toString());
        assertThat(batch.exitCode()).as(batch.err()).isEqualTo(1);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : batch.out().split("\n")) {
            lines.add(new ObjectMapper().readTree(line));
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).path("status").asText()).isEqualTo("completed_with_failures");
        assertThat(lines.get(0).path("final_answer").asText()).isEqualTo("went on");
        assertThat(lines.get(0).path("failed_steps")).hasSize(2);
        assertThat(lines.get(0).at("/failed_steps/1/seq_no").asInt()).isEqualTo(1);
        assertThat(lines.get(0).at("/failed_steps/1/kind").asText()).isEqualTo("step_failed");
        assertThat(lines.get(1).has("failed_steps"))
                .as("a clean plan's line has no failed_steps")
                .isFalse();
        assertThat(batch.err()).contains("1 succeeded, 1 completed_with_failures");

        CliRun stops = CliRun.of("batch", failing, clean.toString());
        assertThat(stops.exitCode()).isEqualTo(1);
        assertThat(new ObjectMapper()
                        .readTree(stops.out().split("\n")[0])
                        .path("status")
                        .asText())
                .as("without --keep-going the first failed step fails the plan")
                .isEqualTo("failed");

        CliRun cleanOnly = CliRun.of("batch", "--keep-going", clean.toString());
        assertThat(cleanOnly.exitCode()).as(cleanOnly.err()).isZero();

        Path out = dir.resolve("out.jsonl");
        assertThat(CliRun.of("batch", "--keep-going", failing, "--out", out.toString())
                        .exitCode())
                .isEqualTo(1);
        CliRun resumed = CliRun.of("batch", "--keep-going", failing, "--resume-from", out.toString());
        assertThat(resumed.exitCode())
                .as("a resumed batch counts an earlier line that went past failed steps: " + resumed.err())
                .isEqualTo(1);
    }

    @Test
    void a_stored_run_that_kept_going_is_completed_with_failures_in_runs_and_show_and_resume_says_so()
            throws Exception {
        String plan = plan(PLAN);
        String store = dir.resolve("runs.db").toString();
        CliRun run = CliRun.of("run", "--keep-going", "--store", store, plan);
        assertThat(run.exitCode()).isEqualTo(1);
        CliRun clean = CliRun.of("run", "--store", store, plan("""
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "fine"}}]"""));
        assertThat(clean.exitCode()).isZero();

        CliRun runs = CliRun.of("runs", "--store", store);
        assertThat(runs.out().lines().toList()).hasSize(3);
        String id = runs.out()
                .lines()
                .filter(line -> line.contains("completed_with_failures"))
                .findFirst()
                .orElseThrow()
                .substring(0, 12);
        CliRun filtered = CliRun.of("runs", "--store", store, "--state", "completed_with_failures");
        assertThat(filtered.exitCode()).isZero();
        assertThat(filtered.out().lines().toList()).hasSize(2).last().asString().startsWith(id);
        CliRun succeeded = CliRun.of("runs", "--store", store, "--state", "succeeded");
        assertThat(succeeded.out().lines().toList())
                .hasSize(2)
                .last()
                .asString()
                .doesNotStartWith(id);
        assertThat(CliRun.of("runs", "--store", store, "--state", "done").exitCode())
                .isEqualTo(2);

        JsonNode shown = new ObjectMapper()
                .readTree(CliRun.of("show", id, "--store", store).out());
        assertThat(shown.path("status").asText()).isEqualTo("completed_with_failures");

        CliRun resume = CliRun.of("resume", id, "--store", store);
        assertThat(resume.exitCode()).isEqualTo(2);
        assertThat(resume.err())
                .contains("run " + id + " completed with failed steps (seq_no 0, 1), which it went on past: nothing"
                        + " to resume")
                .doesNotContain("succeeded");
    }

    @Test
    void without_keep_going_the_first_failed_step_stops_the_run() throws Exception {
        String plan = plan(PLAN);
        CliRun run = CliRun.of("run", "--no-store", plan);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(plan + ": seq_no 0 (assign): ");
    }

    @Test
    void keep_going_with_no_failed_step_exits_0() throws Exception {
        String plan = plan("""
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "fine"}}]""");
        CliRun run = CliRun.of("run", "--keep-going", plan);
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("fine\n");
        assertThat(run.err()).isEmpty();
    }
}
