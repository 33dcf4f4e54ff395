package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/reference/cli.md is generated from the picocli model: the committed page must be what the model says
 * now, so a new command or option, or a changed description, fails here until the page is regenerated (with
 * {@code -Dplanvm.docs.write=true}, which writes it).
 */
class CliReferenceTest {

    private static final Path PAGE = Path.of("../docs/reference/cli.md");

    @Test
    void the_committed_cli_reference_is_what_the_command_line_says() throws IOException {
        String generated = CliReference.markdown();
        if (Boolean.getBoolean("planvm.docs.write")) {
            Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
        }
        String committed = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
        if (!committed.equals(generated)) {
            fail("docs/reference/cli.md is stale (" + firstDifference(committed, generated)
                    + "): regenerate it with\n  " + CliReference.REGENERATE);
        }
    }

    @Test
    void the_reference_has_every_command_and_every_option() {
        String page = CliReference.markdown();
        CommandLine root = PlanvmCommand.commandLine(Map.of());
        assertThat(root.getSubcommands()).hasSizeGreaterThan(15);
        visit(root, spec -> {
            assertThat(page).contains("\n## " + spec.qualifiedName() + " {#" + CliReference.anchor(spec) + "}\n");
            for (OptionSpec option : spec.options()) {
                if (!option.hidden() && !option.usageHelp() && !option.versionHelp()) {
                    assertThat(page)
                            .as("option %s of %s", option.longestName(), spec.qualifiedName())
                            .contains("<code>" + String.join(", ", option.names()));
                }
            }
        });
    }

    private static void visit(CommandLine command, java.util.function.Consumer<CommandSpec> check) {
        if (command.getCommand() instanceof CommandLine.HelpCommand) {
            return;
        }
        check.accept(command.getCommandSpec());
        command.getSubcommands().values().forEach(sub -> visit(sub, check));
    }

    private static String firstDifference(String committed, String generated) {
        List<String> a = committed.lines().toList();
        List<String> b = generated.lines().toList();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String left = i < a.size() ? a.get(i) : "<end of file>";
            String right = i < b.size() ? b.get(i) : "<end of file>";
            if (!left.equals(right)) {
                return "line " + (i + 1) + ": the page has '" + left + "', the command line says '" + right + "'";
            }
        }
        return "line endings differ";
    }
}
