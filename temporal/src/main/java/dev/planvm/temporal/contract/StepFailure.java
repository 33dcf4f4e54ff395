package dev.planvm.temporal.contract;

import java.util.Objects;

/**
 * A step that failed and let the run go on, in a run that keeps going ({@link RunSettings#keepGoing()}): what a local
 * run's result lists as its failed steps.
 *
 * @param seqNo   the step's {@code seq_no}
 * @param type    the instruction type
 * @param tool    the tool a {@code calling} called, or {@code null}
 * @param kind    {@code tool_error}, {@code timeout}, {@code denied} or {@code step_failed}
 * @param message the cause, in a sentence
 */
public record StepFailure(int seqNo, String type, String tool, String kind, String message) {
    public StepFailure {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }
}
