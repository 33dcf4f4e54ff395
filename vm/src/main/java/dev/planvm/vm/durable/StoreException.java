package dev.planvm.vm.durable;

import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.TypedFailure;

/**
 * The run store cannot be read or written; the message names the file and the cause. Its {@link #kind()} is
 * {@link FailureKind#STORE_FULL} when the disk (or a file-size limit) is full, else
 * {@link FailureKind#STORE_FAILED}.
 */
public final class StoreException extends RuntimeException implements TypedFailure {
    private static final long serialVersionUID = 1L;

    private final boolean full;

    public StoreException(String message) {
        this(message, null, false);
    }

    public StoreException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /** @param full whether the disk or a file-size limit is full (writes work again once there is space) */
    public StoreException(String message, Throwable cause, boolean full) {
        super(message, cause);
        this.full = full;
    }

    @Override
    public FailureKind kind() {
        return full ? FailureKind.STORE_FULL : FailureKind.STORE_FAILED;
    }
}
