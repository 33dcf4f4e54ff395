package dev.planvm.cli;

import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm}: the top-level command; does nothing by itself but list its subcommands.
 *
 * <p>Its subcommands are added by {@link #commandLine}, not declared in the annotation: picocli builds the model
 * of a command by reflection, and its own classes (compiled for Java 5) cannot be kept in the class-data archive,
 * so building all 21 models took most of a start (180 of 220 ms of {@code planvm --version}). A command line that
 * names a command gets that command's model only; one that names none (help, usage errors, completion) gets them
 * all; {@code --version} alone gets none.
 */
@Command(
        name = "planvm",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description =
                "Validate and run sequenced plans (the StackVM plan format, or YAML and JavaScript plans compiled to it).",
        synopsisSubcommandLabel = "COMMAND",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:success",
            "1:runtime failure",
            "2:invalid plan or usage",
            "3:the run waits for approval or input",
            "130:a batch was interrupted"
        })
final class PlanvmCommand implements Runnable {

    /** Every subcommand, in the order {@code planvm --help} lists them (loaded only when the whole model is built). */
    static List<Class<?>> commands() {
        return List.of(
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
                AnswerCommand.class,
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
                CommandLine.HelpCommand.class);
    }

    /** Commands that work on the whole model of the command line. */
    private static final Set<String> NEED_ALL = Set.of("help", "completion");

    private static final Set<String> VERSION = Set.of("--version", "-V");

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    private final Map<String, String> environment;
    private final Telemetry telemetry;

    PlanvmCommand(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        this.telemetry = new Telemetry(this.environment);
    }

    /** The command line with every subcommand (for references and tests that read the whole model). */
    static CommandLine commandLine(Map<String, String> environment) {
        CommandLine root = new CommandLine(new PlanvmCommand(environment));
        commands().forEach(root::addSubcommand);
        return root;
    }

    /** The command line that can run {@code args}: with the subcommand they name, or all when they name none. */
    static CommandLine commandLine(Map<String, String> environment, String[] args) {
        if (args.length > 0 && VERSION.containsAll(List.of(args))) {
            return new CommandLine(new PlanvmCommand(environment));
        }
        String named = args.length == 0 || NEED_ALL.contains(args[0]) ? null : NAMES.get(args[0]);
        if (named == null) {
            return commandLine(environment);
        }
        CommandLine root = new CommandLine(new PlanvmCommand(environment));
        try {
            root.addSubcommand(Class.forName(named));
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("planvm is built without its command " + named, e);
        }
        return root;
    }

    /**
     * Each command's name, and the class that implements it, by name only: touching the classes would load
     * them and their annotations, which is what this avoids. {@code CommandModelTest} checks it against the
     * annotations.
     */
    static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("run", "dev.planvm.cli.RunCommand"),
            Map.entry("ask", "dev.planvm.cli.AskCommand"),
            Map.entry("plan", "dev.planvm.cli.PlanCommand"),
            Map.entry("batch", "dev.planvm.cli.BatchCommand"),
            Map.entry("test", "dev.planvm.cli.TestCommand"),
            Map.entry("runs", "dev.planvm.cli.RunsCommand"),
            Map.entry("show", "dev.planvm.cli.ShowCommand"),
            Map.entry("resume", "dev.planvm.cli.ResumeCommand"),
            Map.entry("rerun", "dev.planvm.cli.RerunCommand"),
            Map.entry("approve", "dev.planvm.cli.ApproveCommand"),
            Map.entry("answer", "dev.planvm.cli.AnswerCommand"),
            Map.entry("report", "dev.planvm.cli.ReportCommand"),
            Map.entry("serve", "dev.planvm.cli.ServeCommand"),
            Map.entry("mcp", "dev.planvm.cli.McpCommand"),
            Map.entry("validate", "dev.planvm.cli.ValidateCommand"),
            Map.entry("compile", "dev.planvm.cli.CompileCommand"),
            Map.entry("tools", "dev.planvm.cli.ToolsCommand"),
            Map.entry("schema", "dev.planvm.cli.SchemaCommand"),
            Map.entry("kb", "dev.planvm.cli.KbCommand"),
            Map.entry("worker", "dev.planvm.cli.WorkerCommand"));

    /** The environment commands read their configuration from. */
    Map<String, String> environment() {
        return environment;
    }

    /** OpenTelemetry from the environment, for the commands' VMs; {@link Main} closes it when the command ends. */
    Telemetry telemetry() {
        return telemetry;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: try 'planvm --help'");
    }
}
