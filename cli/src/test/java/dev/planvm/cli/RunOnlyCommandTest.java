package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOnlyCommandTest {

    @TempDir
    Path dir;

    private static final String CASSETTE = """
            {"format": "planvm-cassette/1", "interactions": [
              {"type": "tool", "tool": "vector_search", "params": {"query": "tidb", "top_k": 2}, "output": [{"content": "TiDB is a database"}], "duration_ms": 5}]}""";

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"greeting": "Hello"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "${q}", "top_k": 2}, "output_vars": ["docs"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"addr": "${user}@example.com"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 5}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "skipped"}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${greeting}: ${docs[0].content}"}}]""";

    /** The plan without its calling: it runs without a cassette. */
    private static final String ASSIGNS = PLAN.replaceAll("(?m)^ *\\{\"seq_no\": 1, \"type\": \"calling\".*\n", "");

    private Map<String, String> environment() {
        return Map.of("PLANVM_STORE", dir.resolve("runs.db").toString());
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(environment(), args);
    }

    private String write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content).toString();
    }

    @Test
    void only_runs_one_assign_with_the_given_variables_prints_its_writes_and_stores_nothing() throws Exception {
        CliRun run = planvm("run", write("p.json", ASSIGNS), "--only", "2", "--var", "user=ann");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("{\"addr\":\"ann@example.com\"}\n");
        assertThat(dir.resolve("runs.db")).doesNotExist();
    }

    @Test
    void only_runs_a_calling_answered_by_a_cassette_and_no_later_step() throws Exception {
        CliRun run = planvm(
                "run", write("p.json", PLAN), "--only", "1", "--var", "q=tidb", "--replay", write("c.json", CASSETTE));
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("{\"docs\":[{\"content\":\"TiDB is a database\"}]}\n");
    }

    @Test
    void only_a_jmp_prints_where_it_would_go() throws Exception {
        CliRun run = planvm("run", write("p.json", ASSIGNS), "--only", "3");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("{\"next_seq\":5}\n");
    }

    @Test
    void a_failing_step_is_the_usual_located_error_and_exit_1() throws Exception {
        CliRun run = planvm("run", write("p.json", ASSIGNS), "--only", "2");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("seq_no 2 (assign)").contains("user");
    }

    @Test
    void an_unknown_seq_is_a_usage_error_naming_the_plans_range() throws Exception {
        CliRun run = planvm("run", write("p.json", PLAN), "--only", "9");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("the plan has no seq_no 9 (its seq_nos run from 0 to 5)");
    }

    @Test
    void rerun_with_an_edited_plan_after_seq_keeps_the_committed_steps() throws Exception {
        String plan = write("p.json", PLAN);
        CliRun first =
                planvm("run", plan, "--var", "q=tidb", "--var", "user=ann", "--replay", write("c.json", CASSETTE));
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).isEqualTo("Hello: TiDB is a database\n");
        String id = planvm("runs")
                .out()
                .lines()
                .filter(line -> line.contains(plan))
                .findFirst()
                .orElseThrow()
                .trim()
                .split("\\s+")[0];

        // the kept call used the cassette's only interaction: calling the tool again would fail the rerun
        String edited = write(
                "edited.json",
                PLAN.replace("\"${greeting}: ${docs[0].content}\"", "\"${greeting}, ${user}: ${docs[0].content}\""));
        CliRun rerun = planvm(
                "rerun",
                id,
                "--from",
                "5",
                "--plan",
                edited,
                "--replay",
                dir.resolve("c.json").toString());
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).isEqualTo("Hello, ann: TiDB is a database\n");
        assertThat(rerun.err()).contains("rerun of " + id + " from seq_no 5 (4 committed steps kept, edited plan");
    }

    @Test
    void rerun_with_an_edited_plan_that_changes_a_step_before_seq_is_refused() throws Exception {
        String plan = write("p.json", PLAN);
        CliRun first =
                planvm("run", plan, "--var", "q=tidb", "--var", "user=ann", "--replay", write("c.json", CASSETTE));
        assertThat(first.exitCode()).as(first.err()).isZero();
        String id = planvm("runs")
                .out()
                .lines()
                .filter(line -> line.contains(plan))
                .findFirst()
                .orElseThrow()
                .trim()
                .split("\\s+")[0];

        String edited = write("edited.json", PLAN.replace("\"Hello\"", "\"Hi\""));
        CliRun rerun = planvm("rerun", id, "--from", "5", "--plan", edited);
        assertThat(rerun.exitCode()).isEqualTo(2);
        assertThat(rerun.err()).contains("the edited plan changes seq_no 0, which comes before 5");
        assertThat(rerun.out()).isEmpty();

        String removed = write("removed.json", PLAN.replaceAll("(?m)^ *\\{\"seq_no\": 2, .*\n", ""));
        CliRun without = planvm("rerun", id, "--from", "5", "--plan", removed);
        assertThat(without.exitCode()).isEqualTo(2);
        assertThat(without.err()).contains("the edited plan changes seq_no 2, which comes before 5");
    }
}
