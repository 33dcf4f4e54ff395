package dev.planvm.vm.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.RunListener;
import dev.planvm.vm.RunResult;
import dev.planvm.vm.StepRecord;
import dev.planvm.vm.trace.TraceRecorder;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Writes a run's committed steps to the {@link RunStore} as they commit (a listener: it is called
 * at each step's commit, before the next step starts). A failed step is not committed, so it is
 * not written; a resume runs it again.
 */
public final class StoreRecorder implements RunListener {

    private final RunStore store;
    private final String runId;
    private final Plan plan;
    private final int session;
    private int stepIndex;

    /**
     * @param stepsBefore steps the run had already committed (0 for a new run)
     * @param session     1 for the first process, 2 for the first resume, ...
     */
    public StoreRecorder(RunStore store, String runId, Plan plan, int stepsBefore, int session) {
        this.store = store;
        this.runId = runId;
        this.plan = plan;
        this.stepIndex = stepsBefore;
        this.session = session;
    }

    public String runId() {
        return runId;
    }

    @Override
    public void stepFinished(StepRecord step) {
        if (step.error() != null) {
            return;
        }
        int next = step.jumpTo() != null ? plan.positionOf(step.jumpTo()) : plan.positionOf(step.seqNo()) + 1;
        ObjectNode entry = TraceRecorder.entry(step);
        store.commitStep(runId, new StoredStep(++stepIndex, step.seqNo(), step.type(), next, step.writes(), entry, session,
                Instant.now().truncatedTo(ChronoUnit.MILLIS).toString()));
    }

    @Override
    public void runFinished(RunResult result) {
        store.finishRun(runId, result);
    }
}
