package dev.planvm.vm.durable;

import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import dev.planvm.vm.trace.TraceRecorder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Writes a run's committed steps to the {@link RunStore} as they commit, each in its own
 * transaction, before the next step starts. A failed step that stops the run is not committed (a
 * resume runs it again); one the run goes on from (its {@code on_error}, a run that keeps going) is,
 * with its writes ({@code last_error} included). A write that fails stops the run (see {@link RunJournal}).
 */
final class StoreJournal implements RunJournal {

    private final RunStore store;
    private final String runId;
    private final int session;
    private final Plan plan;
    private int stepIndex;

    /**
     * @param stepsBefore steps the run had already committed (0 for a new run)
     * @param session     1 for the first process, 2 for the first resume, ...
     * @param plan        the plan the run runs (a compiled one names each step's source line in its trace entry)
     */
    StoreJournal(RunStore store, String runId, int stepsBefore, int session, Plan plan) {
        this.store = store;
        this.plan = plan;
        this.runId = runId;
        this.stepIndex = stepsBefore;
        this.session = session;
    }

    @Override
    public void commit(StepRecord step, int nextPosition) {
        store.commitStep(
                runId,
                new StoredStep(
                        stepIndex + 1,
                        step.seqNo(),
                        step.type(),
                        outcome(step.outcome()),
                        nextPosition,
                        step.writes(),
                        step.calls(),
                        TraceRecorder.entry(step, plan.sourceLines().get(step.seqNo())),
                        session,
                        Instant.now().truncatedTo(ChronoUnit.MILLIS).toString()));
        stepIndex++;
    }

    /** The index the step now running will have when it commits (committed steps + 1). */
    int nextStepIndex() {
        return stepIndex + 1;
    }

    @Override
    public void finish(RunResult result) {
        store.finishRun(runId, result);
    }

    @Override
    public String runId() {
        return runId;
    }

    private static String outcome(Outcome outcome) {
        if (outcome instanceof Outcome.JumpTo) {
            return "jump";
        }
        return outcome instanceof Outcome.Halt ? "halt" : "next";
    }
}
