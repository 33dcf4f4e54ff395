package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.PlanSchemas;
import org.junit.jupiter.api.Test;

class PlanvmCommandTest {

    @Test
    void help_lists_the_commands_and_exits_0() {
        CliRun run = CliRun.of("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("Usage: planvm")
                .contains("validate")
                .contains("schema")
                .contains("Exit codes");
    }

    @Test
    void every_command_has_help_and_version() {
        for (String command : new String[] {"validate", "schema"}) {
            assertThat(CliRun.of(command, "--help").out()).contains("Usage: planvm " + command);
            assertThat(CliRun.of(command, "--version").out()).startsWith("planvm ");
        }
    }

    @Test
    void version_names_the_build_version() {
        CliRun run = CliRun.of("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("planvm 0.").contains("Java ");
    }

    @Test
    void no_command_is_a_usage_error() {
        CliRun run = CliRun.of();
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("missing command");
    }

    @Test
    void an_unknown_command_is_a_usage_error() {
        CliRun run = CliRun.of("frobnicate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("frobnicate");
    }

    @Test
    void schema_prints_the_plan_schema_as_json_on_stdout() throws Exception {
        CliRun run = CliRun.of("schema");
        assertThat(run.exitCode()).isZero();
        assertThat(new ObjectMapper().readTree(run.out())).isEqualTo(PlanSchemas.planSchema());
        assertThat(run.err()).isEmpty();
    }
}
