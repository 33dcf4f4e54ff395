package dev.planvm.vm.run;

/**
 * An exception that says what kind of failure it is ({@link FailureKind#of} reads it): the run store's failures,
 * refused durable-run requests, plans rejected before running, Temporal's failures.
 */
public interface TypedFailure {
    FailureKind kind();
}
