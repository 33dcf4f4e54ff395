package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line is built with only the model it needs ({@link PlanvmCommand#commandLine(Map, String[])}),
 * and the by-name table that makes that possible names every command as its annotation does.
 */
class CommandModelTest {

    @Test
    void the_table_of_names_is_the_annotations_of_the_commands() {
        Map<String, String> annotated = new HashMap<>();
        for (Class<?> command : PlanvmCommand.commands()) {
            if (command != CommandLine.HelpCommand.class && command != CompletionCommand.class) {
                annotated.put(command.getAnnotation(CommandLine.Command.class).name(), command.getName());
            }
        }
        assertThat(PlanvmCommand.NAMES).isEqualTo(annotated);
    }

    @Test
    void a_command_line_naming_a_command_builds_that_command_only() {
        CommandLine run = PlanvmCommand.commandLine(Map.of(), new String[] {"run", "plan.json"});
        assertThat(run.getSubcommands()).containsOnlyKeys("run");
        assertThat(PlanvmCommand.commandLine(Map.of(), new String[] {"--version"})
                        .getSubcommands())
                .isEmpty();
    }

    @Test
    void help_completion_a_typo_and_nothing_build_every_command() {
        int all = PlanvmCommand.commands().size();
        for (String[] args : new String[][] {{}, {"--help"}, {"help", "run"}, {"completion"}, {"rnu"}}) {
            assertThat(PlanvmCommand.commandLine(Map.of(), args).getSubcommands())
                    .as(String.join(" ", args))
                    .hasSize(all);
        }
    }

    @Test
    void the_quick_version_prints_what_picocli_prints() {
        java.io.StringWriter picocli = new java.io.StringWriter();
        CommandLine full = PlanvmCommand.commandLine(Map.of()).setOut(new java.io.PrintWriter(picocli, true));
        assertThat(full.execute("--version")).isZero();
        java.io.ByteArrayOutputStream quick = new java.io.ByteArrayOutputStream();
        int code = Main.run(
                new String[] {"--version"},
                new java.io.PrintStream(quick, true, java.nio.charset.StandardCharsets.UTF_8),
                System.err,
                Map.of());
        assertThat(code).isZero();
        assertThat(quick.toString(java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo(picocli.toString())
                .startsWith("planvm ");
    }
}
