package dev.planvm.vm.batch;

/**
 * Observes a batch as its plans finish, e.g. to draw progress. Called from the threads that run
 * the plans, several at once and in completion order: implementations must be thread-safe and
 * quick. A listener that throws is logged and ignored; it never changes an outcome.
 */
@FunctionalInterface
public interface BatchListener {

    /** A listener that does nothing. */
    BatchListener NONE = (index, outcome) -> {};

    /**
     * One plan is done.
     *
     * @param index   the plan's position in the list given to {@link Batch#run}
     * @param outcome how it fared, with its trace when the VM builds traces (the outcomes
     *                {@link Batch#run} returns keep none)
     */
    void planFinished(int index, PlanOutcome outcome);

    /** Tells {@code first}, then {@code second}. */
    static BatchListener both(BatchListener first, BatchListener second) {
        return (index, outcome) -> {
            first.planFinished(index, outcome);
            second.planFinished(index, outcome);
        };
    }
}
