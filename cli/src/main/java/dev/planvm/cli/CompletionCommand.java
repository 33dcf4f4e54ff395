package dev.planvm.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm completion bash|zsh}: the shell completion script for planvm, generated from its commands. */
@Command(
        name = "completion",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Print a completion script for bash or zsh: commands, options and file names complete with Tab.",
            "Install it with: source <(planvm completion bash), or add that line to ~/.bashrc (or ~/.zshrc)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:printed", "2:bad usage"})
final class CompletionCommand implements Callable<Integer> {

    /** The shells the script works in (zsh through its bash completion support, which the script turns on). */
    enum Shell {
        bash,
        zsh
    }

    @CommandLine.Parameters(index = "0", paramLabel = "SHELL", description = "bash or zsh.")
    private Shell shell;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine root = spec.commandLine().getParent();
        spec.commandLine().getOut().print(AutoComplete.bash("planvm", root));
        spec.commandLine().getOut().flush();
        return ExitCodes.OK;
    }
}
