package dev.planvm.temporal;

import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.TypedFailure;
import java.util.Objects;

/**
 * Something planvm could not do with Temporal, in one sentence: the server cannot be reached, no
 * workflow has that id, a workflow ended without a result, a request is too large. Its {@link #kind()}
 * (not its message) is what front ends decide by.
 */
public final class TemporalException extends RuntimeException implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final FailureKind kind;

    public TemporalException(FailureKind kind, String message) {
        this(kind, message, null);
    }

    public TemporalException(FailureKind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /**
     * {@link FailureKind#UNAVAILABLE} (the server cannot be reached), {@link FailureKind#NO_SUCH_RUN},
     * {@link FailureKind#CONFLICT} (the workflow id is taken), {@link FailureKind#REJECTED_BEFORE_RUNNING} (the
     * request cannot be sent) or {@link FailureKind#STEP_FAILED} (the workflow ended without a result).
     */
    @Override
    public FailureKind kind() {
        return kind;
    }
}
