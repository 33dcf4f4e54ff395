package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run.
 *
 * @param status      {@link RunStatus#SUCCEEDED} or {@link RunStatus#FAILED}
 * @param finalAnswer the variable {@code final_answer}; JSON null when it was never set
 * @param variables   every variable at the end of the run
 * @param error       why the run failed, or {@code null}
 * @param steps       how many instructions were executed (with those of earlier sessions of a resumed run)
 * @param duration    wall time of the run
 * @param trace       the trace document (DESIGN §6), or {@code null} when tracing was off
 * @param warnings    run-time warnings (e.g. {@code final_answer} never set)
 * @param earlyCalls  what running calls ahead of their turn did, or {@code null} in a sequential run
 */
public record RunResult(RunStatus status, JsonNode finalAnswer, Map<String, JsonNode> variables, RunError error,
                        int steps, Duration duration, JsonNode trace, List<String> warnings, EarlyCalls earlyCalls) {

    /**
     * Calls started ahead of their turn: how many were started, how many answered their
     * instruction at its turn, and how many were not the call the instruction then made (always 0
     * unless the dependency analysis is wrong).
     */
    public record EarlyCalls(int started, int used, int mismatched) {
    }

    public RunResult {
        if (status != RunStatus.SUCCEEDED && status != RunStatus.FAILED) {
            throw new IllegalArgumentException("a finished run succeeded or failed, not " + status.label());
        }
        variables = Map.copyOf(variables);
        warnings = List.copyOf(warnings);
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }

    /** This result with its trace document. */
    public RunResult withTrace(JsonNode document) {
        return new RunResult(status, finalAnswer, variables, error, steps, duration, document, warnings, earlyCalls);
    }

    /** This result with {@code earlier} warnings (found before the run) ahead of its own. */
    public RunResult withWarningsFirst(List<String> earlier) {
        List<String> all = new ArrayList<>(earlier);
        all.addAll(warnings);
        return new RunResult(status, finalAnswer, variables, error, steps, duration, trace, all, earlyCalls);
    }

    /** This result failed with {@code failure} (e.g. the journal could not record its end). */
    public RunResult failedWith(RunError failure) {
        return new RunResult(RunStatus.FAILED, finalAnswer, variables, failure, steps, duration, trace, warnings, earlyCalls);
    }
}
