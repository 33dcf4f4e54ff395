package dev.planvm.vm.run;

/**
 * Where a run's committed steps are made durable (the run store of durable runs). Unlike a
 * {@link RunListener}, a journal is not an observer that may fail quietly: when
 * {@link #commit} throws, the step is not committed and the run stops, failed, with a message
 * that says the step could not be recorded and why — so a store never says a run succeeded with
 * steps missing. Called on the run's thread, once per successful step, before the next step starts.
 */
public interface RunJournal {

    /**
     * Records a step that succeeded.
     *
     * @param nextPosition where execution goes on: an index into the plan's instructions (the plan's
     *                     size when the run ends after this step)
     */
    void commit(StepRecord step, int nextPosition);

    /** Records how the run ended; a failure here turns a succeeded result into a failed one. */
    default void finish(RunResult result) {}

    /** The id of the run this journal records (a stored run's), or {@code null} when it has none. */
    default String runId() {
        return null;
    }
}
