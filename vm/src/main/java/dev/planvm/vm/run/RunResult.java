package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run (or of one session of a durable run).
 *
 * @param status      {@link RunStatus#SUCCEEDED}; {@link RunStatus#COMPLETED_WITH_FAILURES} (it reached its end
 *                    past failed steps, which {@code failedSteps} lists); {@link RunStatus#FAILED};
 *                    {@link RunStatus#WAITING}
 *                    (stopped before a call that needs approval, see {@link #pending()}); or
 *                    {@link RunStatus#INTERRUPTED} when the run was interrupted at a commit point before its
 *                    end ({@link #interrupted()}: a resume continues it)
 * @param finalAnswer the variable {@code final_answer}; JSON null when it was never set
 * @param variables   every variable at the end of the run
 * @param error       why the run failed, or {@code null}
 * @param steps       how many instructions were executed (with those of earlier sessions of a resumed run)
 * @param duration    wall time of the run
 * @param trace       the trace document (DESIGN §6), or {@code null} when tracing was off
 * @param warnings    run-time warnings (e.g. {@code final_answer} never set)
 * @param earlyCalls  what running calls ahead of their turn did, or {@code null} in a sequential run
 * @param pending     the call waiting for approval when {@link RunStatus#WAITING}, else {@code null}
 * @param failedSteps the steps that failed and let the run go on because it keeps going
 *                    ({@link RunOptions#keepGoing()}), in execution order; empty otherwise (a step whose
 *                    {@code on_error} handled its failure is not listed: the plan decided what it means)
 *
 * <p>Every result that did not succeed has an {@link #error()}: why it failed, what it waits for, or why
 * it stopped.
 */
public record RunResult(
        RunStatus status,
        JsonNode finalAnswer,
        Map<String, JsonNode> variables,
        RunError error,
        int steps,
        Duration duration,
        JsonNode trace,
        List<String> warnings,
        EarlyCalls earlyCalls,
        PendingCall pending,
        List<StepError> failedSteps) {

    /**
     * Calls started ahead of their turn: how many were started, how many answered their
     * instruction at its turn, and how many were not the call the instruction then made (always 0
     * unless the dependency analysis is wrong).
     */
    public record EarlyCalls(int started, int used, int mismatched) {}

    public RunResult {
        if (status != RunStatus.SUCCEEDED
                && status != RunStatus.COMPLETED_WITH_FAILURES
                && status != RunStatus.FAILED
                && status != RunStatus.WAITING
                && status != RunStatus.INTERRUPTED) {
            throw new IllegalArgumentException("a run ends succeeded, completed_with_failures, failed, waiting or"
                    + " interrupted, not " + status.label());
        }
        if ((status == RunStatus.WAITING) != (pending != null)) {
            throw new IllegalArgumentException("a waiting run, and only one, has a pending call");
        }
        failedSteps = List.copyOf(failedSteps == null ? List.of() : failedSteps);
        if (status == RunStatus.SUCCEEDED && !failedSteps.isEmpty()) {
            throw new IllegalArgumentException("a run that went on past failed steps did not succeed: it is "
                    + RunStatus.COMPLETED_WITH_FAILURES.label());
        }
        if (status == RunStatus.COMPLETED_WITH_FAILURES && (failedSteps.isEmpty() || error != null)) {
            throw new IllegalArgumentException(
                    "a run completed with failures lists its failed steps, and has no error of its own");
        }
        if (!completedStatus(status) && error == null) {
            throw new IllegalArgumentException("a run that did not succeed says why (error)");
        }
        variables = Map.copyOf(variables);
        warnings = List.copyOf(warnings);
    }

    /** A result with no step that failed and let the run go on. */
    public RunResult(
            RunStatus status,
            JsonNode finalAnswer,
            Map<String, JsonNode> variables,
            RunError error,
            int steps,
            Duration duration,
            JsonNode trace,
            List<String> warnings,
            EarlyCalls earlyCalls,
            PendingCall pending) {
        this(status, finalAnswer, variables, error, steps, duration, trace, warnings, earlyCalls, pending, List.of());
    }

    /** A result that waits for no approval. */
    public RunResult(
            RunStatus status,
            JsonNode finalAnswer,
            Map<String, JsonNode> variables,
            RunError error,
            int steps,
            Duration duration,
            JsonNode trace,
            List<String> warnings,
            EarlyCalls earlyCalls) {
        this(status, finalAnswer, variables, error, steps, duration, trace, warnings, earlyCalls, null, List.of());
    }

    /** Whether a step failed and the run went on (a run that keeps going): the command line exits 1. */
    public boolean anyStepFailed() {
        return !failedSteps.isEmpty();
    }

    /** Whether the run reached its end with no step failed. */
    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }

    /**
     * Whether the run succeeded and its plan ended in seed 001's {@code use}: the variable
     * {@link dev.planvm.instructions.Plan#USE} is {@code true}, so {@link #finalAnswer()} goes back to the LLM
     * that wrote the plan (the agent plans again with it) rather than being the answer.
     */
    public boolean handsBack() {
        JsonNode use = variables.get(dev.planvm.instructions.Plan.USE);
        return succeeded() && use != null && use.isBoolean() && use.booleanValue();
    }

    /**
     * Whether the run reached its end: it succeeded, or it completed with failures (steps failed and it went on
     * past them); either way {@link #finalAnswer()} is its answer.
     */
    public boolean completed() {
        return completedStatus(status);
    }

    private static boolean completedStatus(RunStatus status) {
        return status == RunStatus.SUCCEEDED || status == RunStatus.COMPLETED_WITH_FAILURES;
    }

    /** Whether the run stopped before a call that needs a reviewer's approval. */
    public boolean waiting() {
        return status == RunStatus.WAITING;
    }

    /** Whether the run was interrupted at a commit point before its end (a resume continues it). */
    public boolean interrupted() {
        return status == RunStatus.INTERRUPTED;
    }

    /** This result with its trace document. */
    public RunResult withTrace(JsonNode document) {
        return new RunResult(
                status,
                finalAnswer,
                variables,
                error,
                steps,
                duration,
                document,
                warnings,
                earlyCalls,
                pending,
                failedSteps);
    }

    /** This result with {@code earlier} warnings (found before the run) ahead of its own. */
    public RunResult withWarningsFirst(List<String> earlier) {
        List<String> all = new ArrayList<>(earlier);
        all.addAll(warnings);
        return new RunResult(
                status, finalAnswer, variables, error, steps, duration, trace, all, earlyCalls, pending, failedSteps);
    }

    /** This result failed with {@code failure} (e.g. the journal could not record its end). */
    public RunResult failedWith(RunError failure) {
        return new RunResult(
                RunStatus.FAILED,
                finalAnswer,
                variables,
                failure,
                steps,
                duration,
                trace,
                warnings,
                earlyCalls,
                null,
                failedSteps);
    }
}
