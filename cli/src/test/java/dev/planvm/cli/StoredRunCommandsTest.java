package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoredRunCommandsTest {

    @TempDir
    Path dir;

    private Map<String, String> environment() {
        return Map.of("PLANVM_STORE", dir.resolve("runs.db").toString());
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(environment(), args);
    }

    @Test
    void a_failed_run_is_listed_shown_rerun_with_a_fixed_input_and_not_resumed_once_it_succeeded() throws Exception {
        Path plan = Files.writeString(dir.resolve("plan.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"greeting": "Hello"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${greeting}, ${name}"}}]""");
        CliRun failed = planvm("run", plan.toString());
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("planvm resume ");
        String id =
                failed.err().replaceAll("(?s).*planvm resume (\\w+).*", "$1").trim();

        CliRun runs = planvm("runs");
        assertThat(runs.out()).contains(id).contains("failed").contains(plan.toString());

        JsonNode shown =
                new ObjectMapper().readTree(planvm("show", id.substring(0, 6)).out());
        assertThat(shown.path("status").asText()).isEqualTo("failed");
        assertThat(shown.path("steps")).hasSize(1);
        assertThat(shown.at("/steps/0/writes/greeting").asText()).isEqualTo("Hello");
        assertThat(shown.at("/error/seq_no").asInt()).isEqualTo(1);

        CliRun rerun = planvm("rerun", id, "--from", "1", "--var", "name=Ann");
        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.out()).isEqualTo("Hello, Ann\n");
        assertThat(rerun.err()).contains("rerun of " + id + " from seq_no 1 (1 committed steps kept)");
        assertThat(planvm("runs").out()).contains("(rerun of " + id + ")");

        String newId =
                rerun.err().replaceAll("(?s)run (\\w+): rerun of.*", "$1").trim();
        CliRun again = planvm("resume", newId);
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("already succeeded");
        assertThat(planvm("resume", "nosuchrun").err()).contains("no run 'nosuchrun'");
        CliRun noSuchStep = planvm("rerun", id, "--from", "9");
        assertThat(noSuchStep.exitCode()).isEqualTo(2);
        assertThat(noSuchStep.err()).contains("no instruction of run " + id + "'s plan has seq_no 9");
    }

    @Test
    void no_store_keeps_nothing() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        assertThat(planvm("run", plan.toString(), "--no-store").exitCode()).isZero();
        assertThat(planvm("runs").err()).startsWith("planvm: there is no run store at ");
        assertThat(dir.resolve("runs.db")).doesNotExist();
    }
}
