package dev.planvm.vm.run;

/**
 * A step stopped because a bound that protects the machine was reached (the run's memory budget, its step
 * limit): {@link FailureKind#LIMIT_REACHED}, which a plan's error handling never absorbs.
 */
public final class LimitReached extends StepFailure {
    private static final long serialVersionUID = 1L;

    public LimitReached(String message) {
        super(message);
    }
}
