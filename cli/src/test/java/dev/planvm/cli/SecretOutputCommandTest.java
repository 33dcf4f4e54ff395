package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What planvm prints never holds a secret verbatim: answers are redacted unless
 * {@code --reveal-secrets}, and an error that quotes the start of a secret quotes its placeholder.
 */
class SecretOutputCommandTest {

    private static final String TOKEN = "tok-9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e";

    @TempDir
    Path dir;

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    private String plan(String name, String json) throws Exception {
        return Files.writeString(dir.resolve(name), json).toString();
    }

    @Test
    void run_prints_an_answer_holding_a_secret_redacted_and_says_so_unless_reveal_secrets() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"Bearer ${token}\"}}]");

        CliRun redacted = planvm("run", plan, "--secret", "token=" + TOKEN);
        assertThat(redacted.exitCode()).isZero();
        assertThat(redacted.out()).isEqualTo("Bearer «secret:token»\n");
        assertThat(redacted.err())
                .isEqualTo(plan + ": the answer holds secret values, printed as «secret:NAME» "
                        + "(--reveal-secrets prints them)\n");

        CliRun revealed = planvm("run", plan, "--secret", "token=" + TOKEN, "--reveal-secrets");
        assertThat(revealed.out()).isEqualTo("Bearer " + TOKEN + "\n");
        assertThat(revealed.err()).isEmpty();
    }

    @Test
    void an_error_quoting_the_start_of_a_secret_prints_no_part_of_it() throws Exception {
        String plan = plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${token * 2}\"}}]");

        CliRun run = planvm("run", plan, "--secret", "token=" + TOKEN);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err())
                .contains("seq_no 0 (assign)")
                .contains("«secret:token»")
                .doesNotContain(TOKEN.substring(0, 8));
    }

    @Test
    void test_takes_secrets_and_compares_and_writes_expectations_with_placeholders_only() throws Exception {
        Files.createDirectory(dir.resolve("plans"));
        plan(
                "plans/p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"Bearer ${token}\"}}]");

        CliRun update = planvm("test", dir.resolve("plans").toString(), "--update", "--secret", "token=" + TOKEN);
        assertThat(update.exitCode()).as(update.out() + update.err()).isZero();
        String expectation = Files.readString(dir.resolve("plans/p.expected.json"));
        assertThat(expectation).contains("Bearer «secret:token»").doesNotContain(TOKEN.substring(0, 8));

        CliRun test = planvm("test", dir.resolve("plans").toString(), "--secret", "token=" + TOKEN);
        assertThat(test.exitCode()).as(test.out() + test.err()).isZero();
        assertThat(test.out()).endsWith("1 passed, 0 failed\n");
    }

    @Test
    void batch_takes_secrets_like_run_and_prints_their_answers_redacted() throws Exception {
        plan(
                "p.json",
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": {\"auth\": \"Bearer ${token}\"}}}]");

        CliRun run = planvm("batch", dir.resolve("p.json").toString(), "--secret", "token=" + TOKEN);

        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(new ObjectMapper()
                        .readTree(run.out())
                        .at("/final_answer/auth")
                        .asText())
                .isEqualTo("Bearer «secret:token»");
        assertThat(run.out()).doesNotContain(TOKEN.substring(0, 8));
        CliRun revealed =
                planvm("batch", dir.resolve("p.json").toString(), "--secret", "token=" + TOKEN, "--reveal-secrets");
        assertThat(revealed.out()).contains("Bearer " + TOKEN);
    }
}
