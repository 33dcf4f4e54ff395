package dev.planvm.cli;

import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm}: the top-level command; does nothing by itself but list its subcommands. */
@Command(
        name = "planvm",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Validate and run sequenced plans (the StackVM plan format, or YAML and JavaScript plans compiled to it).",
        synopsisSubcommandLabel = "COMMAND",
        subcommands = {
            RunCommand.class,
            AskCommand.class,
            PlanCommand.class,
            BatchCommand.class,
            TestCommand.class,
            RunsCommand.class,
            ShowCommand.class,
            ResumeCommand.class,
            RerunCommand.class,
            ApproveCommand.class,
            ReportCommand.class,
            ServeCommand.class,
            McpCommand.class,
            ValidateCommand.class,
            CompileCommand.class,
            ToolsCommand.class,
            SchemaCommand.class,
            KbCommand.class,
            CompletionCommand.class,
            WorkerCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:runtime failure",
            "2:invalid plan or usage",
            "3:the run waits for approval",
            "130:a batch was interrupted"
        })
final class PlanvmCommand implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;

    PlanvmCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** The environment commands read their configuration from. */
    Map<String, String> environment() {
        return environment;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: try 'planvm --help'");
    }
}
