package dev.planvm.vm.run;

import java.util.Objects;

/**
 * Why a run failed.
 *
 * @param seqNo   the failing instruction's {@code seq_no}, or {@code null} for a run-level failure
 * @param type    the failing instruction's type, or {@code null}
 * @param message the cause, in a sentence
 * @param cause   the underlying exception, for {@code --verbose}; may be {@code null}
 * @param line    the source line of the failing instruction when the plan was compiled from a dialect
 *                (YAML, JavaScript), else {@code null}
 * @param kind    what kind of failure it is: what exit codes, HTTP statuses and error handling decide by
 */
public record RunError(Integer seqNo, String type, String message, Throwable cause, Integer line, FailureKind kind) {
    public RunError {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(kind, "kind");
    }

    /** An error whose kind its cause says ({@link FailureKind#ofStep}; a step failure when there is none). */
    public RunError(Integer seqNo, String type, String message, Throwable cause, Integer line) {
        this(seqNo, type, message, cause, line, FailureKind.ofStep(cause));
    }

    /** An error with no source line, whose kind its cause says. */
    public RunError(Integer seqNo, String type, String message, Throwable cause) {
        this(seqNo, type, message, cause, null);
    }

    /** This error at source line {@code value} ({@code null}: none). */
    public RunError withLine(Integer value) {
        return new RunError(seqNo, type, message, cause, value, kind);
    }

    /** This error, of kind {@code value}. */
    public RunError withKind(FailureKind value) {
        return new RunError(seqNo, type, message, cause, line, value);
    }

    /**
     * {@code seq_no 3 (calling): tool 'x' failed: ...}; {@code line 12 (seq_no 3, calling): ...} when
     * the source line is known; just the message for run-level failures.
     */
    public String describe() {
        if (seqNo == null) {
            return message;
        }
        return line == null
                ? "seq_no " + seqNo + " (" + type + "): " + message
                : "line " + line + " (seq_no " + seqNo + ", " + type + "): " + message;
    }
}
