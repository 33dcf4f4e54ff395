package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonFiles;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * What {@code run}, {@code resume} and {@code rerun} do after a run: write the trace and the
 * recorded cassette (also when the run failed), report warnings and failures on stderr, print
 * {@code final_answer} on stdout, and choose the exit code.
 */
final class RunOutput {

    private final String label;
    private final PrintWriter out;
    private final PrintWriter err;
    private final boolean verbose;
    private final Redactor redactor;
    private final Path trace;
    private final Path record;

    /**
     * @param label    what messages are prefixed with (the plan file, or the run)
     * @param redactor keeps the run's secrets out of what is printed on stderr
     * @param trace    where to write the trace, or {@code null}
     * @param record   where to write the recorded cassette of a {@link RunMode.Record} run, or {@code null}
     */
    RunOutput(String label, CommandLine commandLine, boolean verbose, Redactor redactor, Path trace, Path record) {
        this.label = label;
        this.out = commandLine.getOut();
        this.err = commandLine.getErr();
        this.verbose = verbose;
        this.redactor = redactor;
        this.trace = trace;
        this.record = record;
    }

    /** A plan that cannot run here: every problem on stderr, exit 2. */
    int rejected(PlanRejectedException rejected) {
        rejected.problems().forEach(problem -> err.println(TerminalText.safe(label + ": " + problem)));
        return ExitCodes.INVALID;
    }

    /** {@link #finished}, then where to find a stored run that did not succeed. */
    int stored(DurableRun run, RunMode mode, Path store) throws IOException {
        int code = finished(run.result(), mode);
        if (!run.result().succeeded()) {
            err.println("run " + run.id() + " is stored: planvm show " + run.id() + " shows it, planvm resume " + run.id()
                    + " continues it");
        } else if (verbose) {
            err.println("run " + run.id() + " is stored in " + store);
        }
        return code;
    }

    int finished(RunResult result, RunMode mode) throws IOException {
        if (trace != null && result.trace() != null) {
            JsonFiles.writePretty(trace, result.trace());
        }
        if (record != null && mode instanceof RunMode.Record recording) {
            recording.recording().cassette().write(record);
        }
        result.warnings().forEach(warning -> err.println(TerminalText.safe("warning: " + label + ": " + warning)));
        if (!result.succeeded()) {
            err.println(TerminalText.safe(label + ": " + result.error().describe()));
            if (verbose && result.error().cause() != null) {
                StringWriter stack = new StringWriter();
                result.error().cause().printStackTrace(new PrintWriter(stack));
                err.print(redactor.redact(stack.toString()));
            }
            return ExitCodes.RUNTIME_FAILURE;
        }
        JsonNode answer = result.finalAnswer();
        out.println(answer.isTextual() ? answer.asText() : TerminalText.JSON.writeValueAsString(answer));
        return ExitCodes.OK;
    }
}
