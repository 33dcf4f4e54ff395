package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm test --plan-timeout}: a plan that sleeps 30 days with no cassette fails when its time is up, saying
 * where it was, and the other plans still run; the command never hangs (the 60 s bound only proves that).
 */
class TestTimeLimitCommandTest {

    private static final Duration NOT_HUNG = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void a_plan_still_sleeping_when_its_time_is_up_fails_and_the_others_run() throws Exception {
        Files.writeString(dir.resolve("a-sleeps.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 2592000}, "output_vars": "final_answer"}}]""");
        Files.writeString(dir.resolve("a-sleeps.expected.json"), "{\"final_answer\": null, \"status\": \"failed\"}");
        Files.writeString(
                dir.resolve("b-quick.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Files.writeString(dir.resolve("b-quick.expected.json"), "{\"final_answer\": 1}");

        CliRun run =
                assertTimeoutPreemptively(NOT_HUNG, () -> CliRun.of("test", dir.toString(), "--plan-timeout", "0.5"));
        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        Path sleeps = dir.resolve("a-sleeps.json").normalize();
        assertThat(run.out())
                .contains("FAIL " + sleeps + "\n  " + sleeps + ": the plan did not finish within 0.5 s, the time"
                        + " limit of a plan test (planvm test --plan-timeout): it was at seq_no 0, calling sleep\n")
                .containsPattern("PASS .*b-quick\\.json")
                .contains("1 passed, 1 failed");

        CliRun update = assertTimeoutPreemptively(
                NOT_HUNG, () -> CliRun.of("test", sleeps.toString(), "--update", "--plan-timeout", "0.5"));
        assertThat(update.exitCode()).isEqualTo(1);
        assertThat(update.err())
                .contains("the plan did not finish within 0.5 s")
                .contains("nothing was written");
    }

    @Test
    void a_plan_timeout_that_is_not_a_positive_number_is_a_usage_error() throws Exception {
        Files.writeString(
                dir.resolve("quick.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        CliRun run = CliRun.of("test", dir.toString(), "--plan-timeout", "0");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--plan-timeout 0: expected a positive number of seconds");
    }
}
