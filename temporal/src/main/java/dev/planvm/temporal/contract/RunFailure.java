package dev.planvm.temporal.contract;

import java.util.Objects;

/**
 * Why a run failed: the failing instruction's {@code seq_no} and type (both {@code null} for a
 * run-level failure) and the cause in a sentence.
 */
public record RunFailure(Integer seqNo, String type, String message) {
    public RunFailure {
        Objects.requireNonNull(message, "message");
    }

    /** {@code seq_no 3 (calling): tool 'x' failed: ...}, or just the message. */
    public String describe() {
        return seqNo == null ? message : "seq_no " + seqNo + " (" + type + "): " + message;
    }
}
