package dev.planvm.vm.run;

import java.util.Objects;

/**
 * Why a run failed.
 *
 * @param seqNo   the failing instruction's {@code seq_no}, or {@code null} for a run-level failure
 * @param type    the failing instruction's type, or {@code null}
 * @param message the cause, in a sentence
 * @param cause   the underlying exception, for {@code --verbose}; may be {@code null}
 */
public record RunError(Integer seqNo, String type, String message, Throwable cause) {
    public RunError {
        Objects.requireNonNull(message, "message");
    }

    /** {@code seq_no 3 (calling): tool 'x' failed: ...}, or just the message for run-level failures. */
    public String describe() {
        return seqNo == null ? message : "seq_no " + seqNo + " (" + type + "): " + message;
    }
}
