package dev.planvm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.tools.config.ToolsConfigException;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.plantools.PlanToolsException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import picocli.CommandLine;

/**
 * Entry point of the {@code planvm} command. Exit codes: 0 success, 1 runtime failure, 2 invalid
 * plan or usage. No stack trace is printed unless {@code --verbose} is given.
 */
public final class Main {

    private Main() {}

    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler(Main::onUncaught);
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
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // what picocli's --version prints, without building its model (a third of a start)
            for (String line : VersionProvider.lines()) {
                outWriter.println(line);
            }
            outWriter.flush();
            return ExitCodes.OK;
        }
        CommandLine commandLine = PlanvmCommand.commandLine(environment, args)
                .setOut(outWriter)
                .setErr(errWriter)
                .setExecutionExceptionHandler(Main::onUnexpectedFailure)
                .setParameterExceptionHandler(Main::onUsageError);
        int code;
        try {
            code = commandLine.execute(args);
        } catch (OutOfMemoryError | StackOverflowError exhausted) {
            code = onExhausted(exhausted, errWriter, Arrays.asList(args).contains("--verbose"));
        } finally {
            Telemetry.of(commandLine).close(); // the spans of the command's runs are exported before it exits
        }
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
        err.println(TerminalText.safe(commandLine.getCommandName() + ": " + e.getMessage()));
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("(see " + commandLine.getCommandSpec().qualifiedName() + " --help)");
        return ExitCodes.INVALID;
    }

    /**
     * The JVM ran out of heap or stack outside a run (a run turns that into a failed result
     * itself), e.g. while loading or reporting: one line, the stack trace only with --verbose.
     */
    private static int onExhausted(VirtualMachineError error, PrintWriter err, boolean verbose) {
        err.println("planvm: "
                + (error instanceof StackOverflowError
                        ? "the stack overflowed"
                        : "out of memory (" + error.getMessage() + "); give the JVM more (-Xmx) or lower the limits"));
        if (verbose) {
            error.printStackTrace(err);
        }
        return ExitCodes.RUNTIME_FAILURE;
    }

    /**
     * A thread that is not the command's own died (an HTTP client's, a call's): one line on stderr,
     * never the JVM's stack trace, which could fill the terminal and means nothing to the user.
     */
    private static void onUncaught(Thread thread, Throwable error) {
        System.err.println("planvm: thread " + thread.getName() + " failed: " + error);
    }

    /**
     * A failure a command did not turn into an exit code itself: one line on stderr, the stack trace
     * only with --verbose. A request that cannot be carried out (an unknown run, an unreadable
     * cassette) exits 2; anything else (a bug, a disk failure) exits 1.
     */
    private static int onUnexpectedFailure(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        if (e instanceof ToolsConfigException config) {
            config.lines().forEach(line -> err.println(TerminalText.safe(line)));
            return ExitCodes.INVALID;
        }
        if (e instanceof PlanToolsException planTools) {
            planTools.problems().forEach(line -> err.println(TerminalText.safe("planvm: " + line)));
            return ExitCodes.of(planTools.kind());
        }
        String why = e.getMessage() == null
                ? e.getClass().getSimpleName()
                : e instanceof JsonProcessingException json ? JsonErrors.malformed(json) : e.getMessage();
        err.println(TerminalText.safe("planvm: " + why));
        boolean refused = e instanceof DurableRunException || e instanceof CassetteException;
        int code = e instanceof DurableRunException durable
                ? ExitCodes.of(durable.kind())
                : refused ? ExitCodes.INVALID : ExitCodes.RUNTIME_FAILURE;
        if (Verbosity.isVerbose(parseResult)) {
            e.printStackTrace(err);
        } else if (!refused) {
            err.println("(run again with --verbose for details)");
        }
        return code;
    }
}
