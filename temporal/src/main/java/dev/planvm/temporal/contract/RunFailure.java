package dev.planvm.temporal.contract;

import java.util.Objects;

/**
 * Why a run failed: the failing instruction's {@code seq_no} and type (both {@code null} for a
 * run-level failure), the cause in a sentence and the kind of failure as its label ({@code step_failed},
 * {@code limit_reached}, {@code waiting_for_input}, …; {@code null} from a worker older than the field), which
 * decides the submitter's exit code as a local run's kind does.
 */
public record RunFailure(Integer seqNo, String type, String message, String kind) {
    public RunFailure {
        Objects.requireNonNull(message, "message");
    }

    /** A failure without a kind (as workers before the field sent it). */
    public RunFailure(Integer seqNo, String type, String message) {
        this(seqNo, type, message, null);
    }

    /** {@code seq_no 3 (calling): tool 'x' failed: ...}, or just the message. */
    public String describe() {
        return seqNo == null ? message : "seq_no " + seqNo + " (" + type + "): " + message;
    }
}
