package dev.planvm.vm.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Map;
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
                .setExecutionExceptionHandler(Main::onUnexpectedFailure);
        int code = commandLine.execute(args);
        outWriter.flush();
        errWriter.flush();
        return code;
    }

    /** A bug or an environment failure: one line on stderr, the stack trace only with --verbose. */
    private static int onUnexpectedFailure(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println("planvm: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        if (Verbosity.isVerbose(parseResult)) {
            e.printStackTrace(err);
        } else {
            err.println("(run again with --verbose for details)");
        }
        return ExitCodes.RUNTIME_FAILURE;
    }
}
