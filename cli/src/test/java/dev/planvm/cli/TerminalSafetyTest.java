package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text from a plan (types, keys, values, its file name) never reaches the terminal raw: every
 * message {@code validate}, {@code run} and {@code batch} print escapes control characters, so a
 * plan cannot forge output lines ({@code \n}) or drive the terminal (ESC, C1 CSI, BEL). The JSON
 * that {@code batch} prints keeps the exact text, escaped the JSON way.
 */
class TerminalSafetyTest {

    @TempDir
    Path dir;

    /** ESC [2J clears the screen, ESC ] 0 ; ... BEL sets the window title, U+009B is the one-character CSI. */
    private static final String DRIVES = "\u001b[2J\u001b]0;owned\u0007\u009b31m";

    private static void printsNoControlCharacter(String printed) {
        assertThat(printed.chars()
                        .filter(c -> (c < 0x20 && c != '\n') || (c >= 0x7f && c <= 0x9f))
                        .toArray())
                .as("control characters printed in %s", printed)
                .isEmpty();
    }

    @Test
    void validate_escapes_plan_text_in_every_line_it_prints() throws Exception {
        Path plan = dir.resolve("evil.json");
        Files.writeString(
                plan,
                "[{\"seq_no\": 0, \"type\": \"asign" + json(DRIVES) + "\", \"parameters\": {}},"
                        + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"x\\n"
                        + json(plan + ": ok (2 instructions)")
                        + "\": 1}}]");

        CliRun run = CliRun.of("validate", plan.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        printsNoControlCharacter(run.out());
        printsNoControlCharacter(run.err());
        assertThat(run.out().lines())
                .noneMatch(line -> line.equals(plan + ": ok (2 instructions)"))
                .allMatch(line -> line.startsWith(plan + ": seq_no "));
        assertThat(run.out()).contains("'asign\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m'");
    }

    @Test
    void run_escapes_plan_text_and_the_file_name_in_its_error_line() throws Exception {
        Path plan = dir.resolve("two\nlines.json");
        Files.writeString(
                plan,
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${x['" + json(DRIVES)
                        + "']}\"}}]");

        CliRun run = CliRun.of("run", "--no-store", plan.toString(), "--var", "x={}");

        assertThat(run.exitCode()).isEqualTo(1);
        printsNoControlCharacter(run.err());
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err())
                .startsWith(dir + "/two\\nlines.json: seq_no 0 (assign): ")
                .contains("\\u001b[2J\\u001b]0;owned\\u0007\\u009b31m");
    }

    @Test
    void batch_prints_json_lines_that_keep_the_exact_text_and_a_summary_without_control_characters() throws Exception {
        Path plan = dir.resolve("evil.json");
        Files.writeString(
                plan,
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${x['" + json(DRIVES)
                        + "']}\"}}]");

        CliRun run = CliRun.of("batch", "--no-progress", "--verbose", plan.toString(), "--var", "x={}");

        printsNoControlCharacter(run.out());
        printsNoControlCharacter(run.err());
        JsonNode line = new ObjectMapper().readTree(run.out());
        assertThat(line.path("error").asText()).contains(DRIVES);
    }

    @Test
    void a_var_json_cannot_hold_is_a_usage_error() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${n}\"}}]");

        CliRun run = CliRun.of("run", "--no-store", plan.toString(), "--var", "n=[1e400]");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err())
                .startsWith("run: --var n: /0 is the number Infinity, which JSON cannot hold; a stored run could"
                        + " not keep it");
    }

    /** {@code s} as the inside of a JSON string, control characters escaped. */
    private static String json(String s) throws Exception {
        String quoted = new ObjectMapper().writeValueAsString(s);
        return quoted.substring(1, quoted.length() - 1).replace("\u009b", "\\u009b");
    }
}
