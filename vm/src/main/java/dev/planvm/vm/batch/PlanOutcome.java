package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepError;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one plan file fared, whatever happened: the unit that {@code planvm batch} reports and
 * {@code planvm test} compares.
 *
 * @param file        the plan file
 * @param status      what happened: succeeded, completed_with_failures (past failed steps), failed, invalid or
 *                    rejected
 * @param finalAnswer the run's {@code final_answer} (JSON null unless it ran)
 * @param error       why it did not succeed (one line: the run error, the rejection, or the
 *                    validation errors), or {@code null}
 * @param durationMs  wall time from loading to the end of the run
 * @param steps       instructions executed (0 unless it ran)
 * @param diagnostics validation diagnostics (errors and warnings), then the run's warnings (calls a replayed cassette does not cover)
 * @param trace       the run's trace, or {@code null} unless it ran
 * @param failedSteps the steps that failed and let the run go on (a run that keeps going), in execution order;
 *                    empty otherwise
 * @param use         whether the run succeeded and its plan ended in seed 001's {@code use}: its final answer goes
 *                    back to the LLM that wrote the plan ({@link dev.planvm.vm.run.RunResult#handsBack})
 */
public record PlanOutcome(
        Path file,
        RunStatus status,
        JsonNode finalAnswer,
        String error,
        long durationMs,
        int steps,
        List<Diagnostic> diagnostics,
        JsonNode trace,
        List<StepError> failedSteps,
        boolean use) {

    /**
     * The statuses a plan file can end with: succeeded, completed_with_failures (it kept going past failed steps),
     * failed, invalid, rejected.
     */
    public static final List<RunStatus> STATUSES = List.of(
            RunStatus.SUCCEEDED,
            RunStatus.COMPLETED_WITH_FAILURES,
            RunStatus.FAILED,
            RunStatus.INVALID,
            RunStatus.REJECTED);

    public PlanOutcome {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(status, "status");
        finalAnswer = finalAnswer == null ? NullNode.getInstance() : finalAnswer;
        diagnostics = List.copyOf(diagnostics);
        failedSteps = failedSteps == null ? List.of() : List.copyOf(failedSteps);
    }

    /** An outcome of a plan that does not end in {@code use}. */
    public PlanOutcome(
            Path file,
            RunStatus status,
            JsonNode finalAnswer,
            String error,
            long durationMs,
            int steps,
            List<Diagnostic> diagnostics,
            JsonNode trace,
            List<StepError> failedSteps) {
        this(file, status, finalAnswer, error, durationMs, steps, diagnostics, trace, failedSteps, false);
    }

    /** An outcome with no step that failed and let the run go on. */
    public PlanOutcome(
            Path file,
            RunStatus status,
            JsonNode finalAnswer,
            String error,
            long durationMs,
            int steps,
            List<Diagnostic> diagnostics,
            JsonNode trace) {
        this(file, status, finalAnswer, error, durationMs, steps, diagnostics, trace, List.of(), false);
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }

    /** This outcome with {@code answer} as its final answer. */
    public PlanOutcome withFinalAnswer(JsonNode answer) {
        return new PlanOutcome(file, status, answer, error, durationMs, steps, diagnostics, trace, failedSteps, use);
    }

    /** This outcome with {@code steps} as the steps that failed and let the run go on. */
    public PlanOutcome withFailedSteps(List<StepError> steps) {
        return new PlanOutcome(
                file, status, finalAnswer, error, durationMs, this.steps, diagnostics, trace, steps, use);
    }

    /** This outcome marked as a plan's that ended in {@code use} ({@code true}) or not. */
    public PlanOutcome withUse(boolean handsBack) {
        return new PlanOutcome(
                file, status, finalAnswer, error, durationMs, steps, diagnostics, trace, failedSteps, handsBack);
    }

    /** This outcome without its trace (a batch keeps no trace once the plan's line is written). */
    public PlanOutcome withoutTrace() {
        return new PlanOutcome(
                file, status, finalAnswer, error, durationMs, steps, diagnostics, null, failedSteps, use);
    }

    /** Whether the plan succeeded and no step failed on the way (a run that keeps going may succeed past some). */
    public boolean clean() {
        return succeeded() && failedSteps.isEmpty();
    }
}
