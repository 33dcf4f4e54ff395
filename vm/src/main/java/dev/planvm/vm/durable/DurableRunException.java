package dev.planvm.vm.durable;

import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.TypedFailure;
import java.util.Objects;

/**
 * A durable-run request that cannot be carried out, in one sentence: no such run, an ambiguous id,
 * a run that already succeeded, a {@code seq_no} the run never reached, a stored plan that no
 * longer loads. Nothing was run and nothing was written to the store. Its {@link #kind()} (not its
 * message) is what front ends decide by.
 */
public final class DurableRunException extends RuntimeException implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final FailureKind kind;

    /**
     * @param kind {@link FailureKind#NO_SUCH_RUN} or {@link FailureKind#CONFLICT} (the request does not fit the
     *     run's state)
     */
    public DurableRunException(FailureKind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** A request that does not fit the run's state: {@link FailureKind#CONFLICT}. */
    public DurableRunException(String message) {
        this(FailureKind.CONFLICT, message);
    }

    /** A request naming a run that does not exist: {@link FailureKind#NO_SUCH_RUN}. */
    public static DurableRunException noSuchRun(String message) {
        return new DurableRunException(FailureKind.NO_SUCH_RUN, message);
    }

    @Override
    public FailureKind kind() {
        return kind;
    }
}
