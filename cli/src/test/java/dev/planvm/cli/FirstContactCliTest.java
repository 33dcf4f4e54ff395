package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line under real use: one exit-code rule, one-line errors, completion, directory scans. */
class FirstContactCliTest {

    @TempDir
    Path dir;

    @Test
    void every_command_refuses_a_directory_without_plans_and_a_missing_path_with_exit_2() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        for (String command : new String[] {"validate", "batch", "test"}) {
            CliRun none = CliRun.of(command, empty.toString());
            assertThat(none.exitCode()).as(command).isEqualTo(2);
            assertThat(none.err()).as(command).contains("no plan file in " + empty);
            CliRun missing = CliRun.of(command, dir.resolve("nope").toString());
            assertThat(missing.exitCode()).as(command).isEqualTo(2);
            assertThat(missing.err()).as(command).contains("nope: no such file or directory");
        }
    }

    @Test
    void an_error_that_is_not_about_usage_is_one_line_with_where_the_help_is() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"), "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"a\": 1}}]");
        CliRun secret = CliRun.of("run", plan.toString(), "--secret", "tok=abc", "--no-store");
        assertThat(secret.exitCode()).isEqualTo(2);
        assertThat(secret.err().lines())
                .hasSizeLessThanOrEqualTo(2)
                .first()
                .asString()
                .startsWith("run: --secret tok: ");
        assertThat(secret.err()).contains("(see planvm run --help)").doesNotContain("Usage:");
        CliRun typo = CliRun.of("run", plan.toString(), "--no-stor");
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err())
                .contains("Unknown option: '--no-stor'")
                .contains("--no-store")
                .doesNotContain("Usage:");
    }

    @Test
    void malformed_json_anywhere_is_one_located_line_without_jacksons_source_noise() throws Exception {
        Path plan = Files.writeString(
                dir.resolve("p.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Path cassette =
                Files.writeString(dir.resolve("c.json"), "{\"format\": \"planvm-cassette/1\", \"interactions\": [}");
        Path config = Files.writeString(dir.resolve("cfg.json"), "{\"mcpServers\": {x}");
        Path trace = Files.writeString(dir.resolve("t.trace.json"), "{ bad");
        Files.writeString(dir.resolve("p.expected.json"), "{\"result\": [}");
        CliRun[] runs = {
            CliRun.of("run", plan.toString(), "--replay", cassette.toString(), "--no-store"),
            CliRun.of("run", plan.toString(), "--config", config.toString(), "--no-store"),
            CliRun.of("report", trace.toString(), "-o", dir.resolve("r.html").toString()),
            CliRun.of("test", plan.toString()),
        };
        for (CliRun run : runs) {
            String all = run.out() + run.err();
            assertThat(all)
                    .as(all)
                    .containsPattern("line 1, column \\d+")
                    .doesNotContain("Source", "REDACTED", "StreamReadFeature");
            assertThat(run.exitCode()).as(all).isNotZero();
        }
        assertThat(runs[0].err())
                .contains("c.json: malformed JSON at line 1, column 50: Unexpected close marker '}': expected ']'"
                        + " (for Array starting at line 1, column 49)");
    }

    @Test
    void a_trace_or_cassette_in_a_plan_directory_is_not_taken_for_a_plan_whatever_its_name() throws Exception {
        Files.writeString(
                dir.resolve("a.json"),
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]");
        Files.writeString(dir.resolve("last-run.json"), "{\"format\": \"planvm-trace/1\", \"steps\": []}");
        Files.writeString(dir.resolve("calls.json"), "{\n  \"format\" : \"planvm-cassette/1\", \"interactions\": []}");
        CliRun validate = CliRun.of("validate", dir.toString());
        assertThat(validate.exitCode()).as(validate.err()).isZero();
        assertThat(validate.out())
                .contains("a.json: ok")
                .doesNotContain("last-run")
                .doesNotContain("calls.json");
    }

    @Test
    void completion_scripts_name_every_command() {
        CliRun bash = CliRun.of("completion", "bash");
        assertThat(bash.exitCode()).isZero();
        assertThat(bash.out())
                .contains("complete -F")
                .contains("validate")
                .contains("resume")
                .contains("--replay");
        assertThat(CliRun.of("completion", "zsh").out()).contains("bashcompinit");
        assertThat(CliRun.of("completion", "fish").exitCode()).isEqualTo(2);
    }
}
