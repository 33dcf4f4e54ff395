package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm answer --value} refuses, with exit 2 and one sentence, an answer the run could not hold — larger
 * than a variable may be, a number beyond a double, text with a lone surrogate, JSON followed by more text — and
 * the run keeps waiting for a right one.
 */
class AnswerRefusalCommandTest {

    @TempDir
    Path dir;

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString()), args);
    }

    private String state(String id) throws Exception {
        return new ObjectMapper()
                .readTree(planvm("show", id).out())
                .path("status")
                .asText();
    }

    @Test
    void an_answer_the_run_could_not_hold_is_exit_2_and_the_run_keeps_waiting() throws Exception {
        Path plan = Files.writeString(dir.resolve("ask.json"), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Name?", "schema": {"type": "string"}}, "output_vars": "final_answer"}}]""");
        CliRun waiting = planvm("run", plan.toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String id = waiting.err()
                .replaceAll("(?s).*run (\\w+) waits for input.*", "$1")
                .trim();

        CliRun tooLarge = planvm("answer", id, "--value", "\"" + "x".repeat(6 << 20) + "\"");
        assertThat(tooLarge.exitCode()).as(tooLarge.err()).isEqualTo(2);
        assertThat(tooLarge.err())
                .contains("run " + id + " keeps waiting: the answer is text of 6,291,456 characters; the limit for one"
                        + " value is 5,242,880");
        assertThat(tooLarge.err().lines().count())
                .as("one sentence, no stack trace")
                .isLessThan(3);
        CliRun tooLargeText = planvm("answer", id, "--text", "x".repeat(6 << 20));
        assertThat(tooLargeText.exitCode()).isEqualTo(2);

        CliRun infinite = planvm("answer", id, "--value", "1e400");
        assertThat(infinite.exitCode()).isEqualTo(2);
        assertThat(infinite.err()).contains("keeps waiting: the answer is the number Infinity, which JSON cannot hold");

        CliRun surrogate = planvm("answer", id, "--value", "\"\\ud800\"");
        assertThat(surrogate.exitCode()).isEqualTo(2);
        assertThat(surrogate.err())
                .contains("keeps waiting: the answer is text with a lone surrogate \\uD800 at character 0");

        CliRun trailing = planvm("answer", id, "--value", "\"Ann\" and more");
        assertThat(trailing.exitCode()).isEqualTo(2);
        assertThat(trailing.err()).contains("--value is not JSON");
        assertThat(state(id)).isEqualTo("waiting");

        CliRun right = planvm("answer", id, "--value", "\"Ann\"");
        assertThat(right.exitCode()).as(right.err()).isZero();
        assertThat(right.out()).isEqualTo("Ann\n");
    }

    @Test
    void a_var_is_json_only_when_its_whole_text_is() throws Exception {
        Path plan = Files.writeString(dir.resolve("echo.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": {"note": "${note}", "x": "${x}", "n": "${n}"}}}]""");
        CliRun run = planvm(
                "run",
                "--no-store",
                plan.toString(),
                "--var",
                "note=42 apples",
                "--var",
                "x=[1,2] or more",
                "--var",
                "n=42");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("{\"note\":\"42 apples\",\"x\":\"[1,2] or more\",\"n\":42}\n");
    }
}
