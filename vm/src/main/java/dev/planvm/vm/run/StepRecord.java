package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.call.Call;
import java.util.List;
import java.util.Objects;

/**
 * What one executed step did, as listeners, the trace and the run store see it.
 *
 * @param seqNo          the instruction's {@code seq_no}
 * @param type           the instruction type
 * @param offsetNanos    when the step started, in nanoseconds since the run started
 * @param durationNanos  how long it took
 * @param inputs         resolved inputs (interpolated params, condition, ...)
 * @param writes         variables written, name to value
 * @param outcome        what the handler said happens next, or {@code null} when the step failed
 * @param explanation    why a condition went the way it did, or {@code null}
 * @param error          the failure message, or {@code null} when the step succeeded
 * @param calls          the calls the step made through the call chain, in order (typed: a resume
 *                       knows which recorded interactions they used)
 * @param handled        when the step failed and the run went on: {@code value} or {@code jump} (its
 *                       {@code on_error}) or {@code keep_going} (the run keeps going); else {@code null}
 */
public record StepRecord(
        int seqNo,
        String type,
        long offsetNanos,
        long durationNanos,
        ObjectNode inputs,
        ObjectNode writes,
        Outcome outcome,
        String explanation,
        String error,
        List<Call> calls,
        String handled) {

    public StepRecord {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(inputs, "inputs");
        Objects.requireNonNull(writes, "writes");
        calls = List.copyOf(calls);
        if (handled != null && error == null) {
            throw new IllegalArgumentException("only a failed step is handled");
        }
    }

    /** A step that either succeeded or stopped the run. */
    public StepRecord(
            int seqNo,
            String type,
            long offsetNanos,
            long durationNanos,
            ObjectNode inputs,
            ObjectNode writes,
            Outcome outcome,
            String explanation,
            String error,
            List<Call> calls) {
        this(seqNo, type, offsetNanos, durationNanos, inputs, writes, outcome, explanation, error, calls, null);
    }

    /** The {@code seq_no} jumped to, or {@code null} when execution went on in order (or halted, or failed). */
    public Integer jumpTo() {
        return outcome instanceof Outcome.JumpTo jump ? jump.seqNo() : null;
    }

    public boolean failed() {
        return error != null;
    }

    /** Whether the step failed and the run went on (its {@code on_error}, or a run that keeps going). */
    public boolean recovered() {
        return handled != null;
    }
}
