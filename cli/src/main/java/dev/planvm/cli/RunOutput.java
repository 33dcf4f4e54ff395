package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonFiles;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.Redactor;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.WaitingCall;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
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
    private final boolean revealSecrets;
    private DocumentRun document;

    /**
     * @param label    what messages are prefixed with (the plan file, or the run)
     * @param redactor keeps the run's secrets out of what is printed on stderr
     * @param trace    where to write the trace, or {@code null}
     * @param record   where to write the recorded cassette of a {@link RunMode.Record} run, or {@code null}
     * @param revealSecrets print an answer that holds secrets as it is (else redacted, saying so on stderr)
     */
    RunOutput(
            String label,
            CommandLine commandLine,
            boolean verbose,
            Redactor redactor,
            Path trace,
            Path record,
            boolean revealSecrets) {
        this.label = label;
        this.out = commandLine.getOut();
        this.err = commandLine.getErr();
        this.verbose = verbose;
        this.redactor = redactor;
        this.trace = trace;
        this.record = record;
        this.revealSecrets = revealSecrets;
    }

    /** This output for the run of an Idyll document: the report completed, the document copy, exit 1 when a block failed. */
    RunOutput document(DocumentRun value) {
        this.document = value;
        return this;
    }

    /** A plan that cannot run here: every problem on stderr, exit 2. */
    int rejected(PlanRejectedException rejected) {
        rejected.problems().forEach(problem -> err.println(TerminalText.safe(label + ": " + problem)));
        return ExitCodes.of(FailureKind.REJECTED_BEFORE_RUNNING);
    }

    /** {@link #finished}, then where to find a stored run that did not succeed. */
    int stored(DurableRun run, RunMode mode, Path store) throws IOException {
        int code = finished(run, mode);
        if (!run.result().completed() && !run.result().waiting()) {
            err.println("run " + run.id() + " is stored: planvm show " + run.id() + " shows it, planvm resume "
                    + run.id() + " continues it");
        } else if (verbose) {
            err.println("run " + run.id() + " is stored in " + store);
        }
        return code;
    }

    /** {@link #finished(DurableRun, RunMode)} of a run that is not stored. */
    int finished(RunResult result, RunMode mode) throws IOException {
        return finished(result, mode, null, List.of(), null);
    }

    /**
     * Writes the trace and the recorded cassette, reports warnings and failures, prints the answer of
     * a run that succeeded and returns the exit code: 1 when the run failed, a step failed in a run that
     * keeps going (each is reported on stderr) or an output file could not be written (the answer is printed all the same; the message names the file); 3 for a run
     * that waits for approval or input (it prints the call it waits for and how to approve or answer it; for the
     * elements of a {@code for_each} that wait, each on its own, which one that is and how to decide the others);
     * 4 for a run whose plan ends in seed 001's {@code use} (the answer is printed and marked on stderr as the value
     * handed back).
     */
    int finished(DurableRun run, RunMode mode) throws IOException {
        return finished(run.result(), mode, run.id(), run.waiting(), null);
    }

    /**
     * {@link #finished(DurableRun, RunMode)} of a session of a stored run ({@code resume}, {@code approve},
     * {@code answer}, {@code rerun}): an Idyll document's report is completed from the run as stored
     * ({@link DocumentRun#stored}).
     */
    int finished(DurableRun run, RunMode mode, RunStore runs) throws IOException {
        if (document == null && run.result().succeeded()) {
            document = runs.find(run.id()).map(DocumentRun::stored).orElse(null);
        }
        return finished(run, mode);
    }

    /**
     * {@link #finished(RunResult, RunMode)} of a single step ({@code run --only}): a run that ran its
     * step ({@code printed} not null) prints {@code printed} as compact JSON instead of the answer, though
     * it was stopped after that step.
     */
    int step(RunResult result, RunMode mode, JsonNode printed) throws IOException {
        return finished(result, mode, null, List.of(), printed);
    }

    /**
     * For a run that waits for elements of a {@code for_each}, each on its own: how many, which one a plain {@code
     * approve} or {@code answer} decides (its element and call id, as {@code planvm show} names it), and how to decide
     * the others.
     */
    private void elements(String runId, List<WaitingCall> waiting) {
        if (runId == null || waiting.isEmpty() || !waiting.get(0).isElement()) {
            return;
        }
        WaitingCall first = waiting.get(0);
        int n = waiting.size();
        boolean input = first.kind() == WaitingCall.Kind.INPUT;
        err.println(TerminalText.safe("waiting for " + n + (input ? " answer" : " call") + (n == 1 ? "" : "s")
                + " of for_each elements, each " + (input ? "asked" : "decided") + " on its own; planvm "
                + (input ? "answer " : "approve ") + runId + (input ? " answers" : " decides") + " element "
                + first.element() + " (call " + first.callId() + ")"
                + (n == 1 ? "" : ", --call-id ID another" + (input ? "" : ", --all every one (listing each)"))
                + "; planvm show " + runId + " lists them"));
    }

    /** What a right answer is, when the input says: {@code ; one of: yes, no} or {@code ; fitting the schema {...}}. */
    private static String answerHint(JsonNode params) {
        if (params.path("choices").isArray()) {
            List<String> choices = new java.util.ArrayList<>();
            params.path("choices").forEach(choice -> choices.add(choice.asText()));
            return "; one of: " + String.join(", ", choices);
        }
        return params.has("schema") ? "; fitting the schema " + params.get("schema") : "";
    }

    /**
     * @param runId   the stored run's id, or {@code null} when it is not stored
     * @param waiting the calls a stored run that waits waits for ({@link DurableRun#waiting})
     */
    private int finished(RunResult run, RunMode mode, String runId, List<WaitingCall> waiting, JsonNode step)
            throws IOException {
        RunResult result = document != null && step == null ? document.complete(run) : run;
        boolean written = true;
        if (trace != null && result.trace() != null) {
            written = write(() -> JsonFiles.writePretty(trace, result.trace()));
        }
        if (record != null && mode instanceof RunMode.Record recording) {
            written &= write(() -> recording.recording().cassette().write(record));
        }
        result.warnings().forEach(warning -> err.println(TerminalText.safe("warning: " + label + ": " + warning)));
        result.failedSteps()
                .forEach(failed -> err.println(TerminalText.safe(label + ": seq_no " + failed.seqNo() + " ("
                        + failed.type() + ") failed, " + failed.kind().label() + ", and the run went on: "
                        + failed.message())));
        if (result.waiting()) {
            err.println(TerminalText.safe(label + ": " + result.error().describe()));
            boolean input = result.pending() != null
                    && result.pending().tool().equals(dev.planvm.tools.approval.InputRequest.TOOL);
            if (input) {
                err.println(TerminalText.safe(
                        runId == null
                                ? "the run is not stored (--no-store), so it cannot be answered later"
                                : "run " + runId + " waits for input: planvm answer " + runId
                                        + " --value JSON (or --text STRING) answers it and continues the run"
                                        + answerHint(result.pending().params())));
                elements(runId, waiting);
                return ExitCodes.WAITING;
            }
            err.println(
                    runId == null
                            ? "the run is not stored (--no-store), so it cannot be approved later"
                            : "run " + runId + " waits for approval: planvm approve " + runId
                                    + " continues it, planvm approve " + runId
                                    + " --deny --reason TEXT fails the step");
            elements(runId, waiting);
            return ExitCodes.WAITING;
        }
        if (!result.completed() && step == null) {
            err.println(TerminalText.safe(label + ": " + result.error().describe()));
            if (verbose && result.error().cause() != null) {
                StringWriter stack = new StringWriter();
                result.error().cause().printStackTrace(new PrintWriter(stack));
                err.print(redactor.redact(stack.toString()));
            }
            return ExitCodes.of(result.error().kind());
        }
        JsonNode shown = step != null ? step : result.finalAnswer();
        JsonNode answer = revealSecrets ? shown : redactor.redact(shown);
        if (!answer.equals(shown)) {
            err.println(label
                    + ": the answer holds secret values, printed as «secret:NAME» (--reveal-secrets prints them)");
        }
        out.println(
                answer.isTextual() && step == null ? answer.asText() : TerminalText.JSON.writeValueAsString(answer));
        if (result.anyStepFailed()) {
            int count = result.failedSteps().size();
            err.println(label + ": " + count + (count == 1 ? " step" : " steps") + " failed (--keep-going): the run"
                    + " completed_with_failures");
            return ExitCodes.RUNTIME_FAILURE;
        }
        if (document != null && step == null) {
            written &= document.finish(result, err, label);
        }
        if (!written) {
            return ExitCodes.RUNTIME_FAILURE;
        }
        if (result.handsBack() && step == null) {
            err.println(label + ": the plan ends in use: the value printed goes back to the LLM that wrote the plan"
                    + " (exit " + ExitCodes.USE + ")");
            return ExitCodes.USE;
        }
        return ExitCodes.OK;
    }

    /** Something that writes an output file. */
    private interface Output {
        void write() throws IOException;
    }

    /** Runs {@code output}; a failure is one line on stderr (naming the file) and {@code false}. */
    private boolean write(Output output) {
        try {
            output.write();
            return true;
        } catch (IOException | RuntimeException e) {
            err.println(label + ": "
                    + redactor.redact(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            if (verbose) {
                StringWriter stack = new StringWriter();
                e.printStackTrace(new PrintWriter(stack));
                err.print(redactor.redact(stack.toString()));
            }
            return false;
        }
    }
}
