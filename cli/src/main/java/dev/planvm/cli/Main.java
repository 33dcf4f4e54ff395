package dev.planvm.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.durable.DurableRunException;
import picocli.CommandLine;

/**
 * Entry point of the {@code planvm} command. Exit codes: 0 success, 1 runtime failure, 2 invalid
 * plan or usage. No stack trace is printed unless {@code --verbose} is given.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line with the given streams and the process environment; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System.getenv());
    }

    /**
     * Runs one command line with the given streams and environment (where the LLM configuration
     * and tool settings are read from) and returns the exit code. Tests pass their own environment.
     */
    public static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> environment) {
        PrintWriter outWriter = new PrintWriter(out, true, StandardCharsets.UTF_8);
        PrintWriter errWriter = new PrintWriter(err, true, StandardCharsets.UTF_8);
        CommandLine commandLine = new CommandLine(new PlanvmCommand(environment))
                .setOut(outWriter)
                .setErr(errWriter)
                .setExecutionExceptionHandler(Main::onUnexpectedFailure)
                .setParameterExceptionHandler(Main::onUsageError);
        int code = commandLine.execute(args);
        outWriter.flush();
        errWriter.flush();
        return code;
    }

    /**
     * Bad usage: the sentence that says what is wrong (with suggestions for a mistyped option) and
     * where the help is, never the whole usage text; exit 2.
     */
    private static int onUsageError(CommandLine.ParameterException e, String[] args) {
        CommandLine commandLine = e.getCommandLine();
        PrintWriter err = commandLine.getErr();
        err.println(commandLine.getCommandName() + ": " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("(see " + commandLine.getCommandSpec().qualifiedName() + " --help)");
        return ExitCodes.INVALID;
    }

    /**
     * A failure a command did not turn into an exit code itself: one line on stderr, the stack trace
     * only with --verbose. A request that cannot be carried out (an unknown run, an unreadable
     * cassette) exits 2; anything else (a bug, a disk failure) exits 1.
     */
    private static int onUnexpectedFailure(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        if (e instanceof ToolsConfigException config) {
            config.lines().forEach(err::println);
            return ExitCodes.INVALID;
        }
        err.println("planvm: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        boolean refused = e instanceof DurableRunException || e instanceof CassetteException;
        if (Verbosity.isVerbose(parseResult)) {
            e.printStackTrace(err);
        } else if (!refused) {
            err.println("(run again with --verbose for details)");
        }
        return refused ? ExitCodes.INVALID : ExitCodes.RUNTIME_FAILURE;
    }
}
