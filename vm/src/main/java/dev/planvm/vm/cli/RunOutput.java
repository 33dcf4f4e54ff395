package dev.planvm.vm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.tools.AtomicFiles;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

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

    /**
     * @param label    what messages are prefixed with (the plan file, or the run)
     * @param redactor keeps the run's secrets out of what is printed on stderr (and out of log lines)
     */
    RunOutput(String label, PrintWriter out, PrintWriter err, boolean verbose, Redactor redactor) {
        this.label = label;
        this.out = out;
        this.err = err;
        this.verbose = verbose;
        this.redactor = redactor;
        RedactingLogs.use(redactor);
    }

    /** A plan that cannot run here: every problem on stderr, exit 2. */
    int rejected(PlanRejectedException rejected) {
        rejected.problems().forEach(problem -> err.println(label + ": " + problem));
        return ExitCodes.INVALID;
    }

    /**
     * @param trace  where to write the trace, or {@code null}
     * @param record where to write the recorded cassette, or {@code null}
     */
    int finished(RunResult result, Path trace, Path record) throws IOException {
        if (trace != null && result.trace() != null) {
            AtomicFiles.write(trace, result.trace().toPrettyString() + "\n");
        }
        if (record != null && result.recording() != null) {
            result.recording().write(record);
        }
        result.warnings().forEach(warning -> err.println("warning: " + label + ": " + warning));
        if (!result.succeeded()) {
            err.println(label + ": " + result.error().describe());
            if (verbose && result.error().cause() != null) {
                StringWriter stack = new StringWriter();
                result.error().cause().printStackTrace(new PrintWriter(stack));
                err.print(redactor.redact(stack.toString()));
            }
            return ExitCodes.RUNTIME_FAILURE;
        }
        JsonNode answer = result.finalAnswer();
        out.println(answer.isTextual() ? answer.asText() : new ObjectMapper().writeValueAsString(answer));
        return ExitCodes.OK;
    }
}
