package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.List;
import java.util.Objects;

/**
 * The result of a {@link PlanWorkflow}.
 *
 * @param status      {@code succeeded}, {@code failed} (a step failed), {@code rejected} (the plan
 *                    cannot run with these workers: {@link #problems}) or {@code invalid} (it did not
 *                    load: {@link #problems} are its errors)
 * @param finalAnswer the variable {@code final_answer}, JSON null when never set or not run
 * @param error       why the run failed, or {@code null}
 * @param steps       instructions executed
 * @param warnings    run-time warnings
 * @param problems    why the plan was rejected or invalid, one sentence each
 * @param trace       the trace document (as a local run's), or {@code null}
 * @param cassette    the recorded cassette of a {@code record} run, else {@code null}
 * @param failedSteps the steps that failed and let the run go on, in a run that keeps going
 *                    ({@link RunSettings#keepGoing()}), in execution order; empty otherwise
 * @param use         the run succeeded and its plan ends in seed 001's {@code use}: {@code finalAnswer} goes back
 *                    to the LLM that wrote the plan (absent, false, from a worker that does not know it)
 */
public record PlanResponse(
        String status,
        JsonNode finalAnswer,
        RunFailure error,
        int steps,
        List<String> warnings,
        List<String> problems,
        JsonNode trace,
        JsonNode cassette,
        List<StepFailure> failedSteps,

        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
        boolean use) {

    public PlanResponse {
        Objects.requireNonNull(status, "status");
        finalAnswer = finalAnswer == null ? NullNode.getInstance() : finalAnswer;
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        problems = problems == null ? List.of() : List.copyOf(problems);
        failedSteps = failedSteps == null ? List.of() : List.copyOf(failedSteps);
    }

    /** A response whose run did not end in {@code use}. */
    public PlanResponse(
            String status,
            JsonNode finalAnswer,
            RunFailure error,
            int steps,
            List<String> warnings,
            List<String> problems,
            JsonNode trace,
            JsonNode cassette,
            List<StepFailure> failedSteps) {
        this(status, finalAnswer, error, steps, warnings, problems, trace, cassette, failedSteps, false);
    }

    /** A plan that did not run: {@code rejected} or {@code invalid}, with why. */
    public static PlanResponse refused(String status, List<String> problems) {
        return new PlanResponse(status, NullNode.getInstance(), null, 0, List.of(), problems, null, null, List.of());
    }

    public boolean succeeded() {
        return status.equals("succeeded");
    }

    /** Whether the run reached its end: it succeeded, or completed with failures (past failed steps). */
    public boolean completed() {
        return succeeded() || status.equals("completed_with_failures");
    }
}
