package dev.planvm.vm.durable;

import dev.planvm.tools.approval.Approvals;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunResult;
import java.util.List;

/**
 * One session of a stored run: the checked request run by its VM with the store as its journal (each step
 * committed before the next starts) and as its approvals (a decision, an answer, a wake time kept), this process
 * holding the run's lease the while; and how the session ended, with the calls it waits for.
 */
final class StoredSessions {

    private final RunStore store;
    private final Waits waits;
    private final boolean sleepsWait;

    /** @param sleepsWait whether a sleep with time left stops the run, waiting for its timer ({@link DurableRuns}) */
    StoredSessions(RunStore store, boolean sleepsWait) {
        this.store = store;
        this.waits = new Waits(store);
        this.sleepsWait = sleepsWait;
    }

    /** Runs session {@code session} of stored run {@code id}, holding its lease, and says how it ended. */
    @SuppressWarnings("try") // the heartbeat is held while the run executes, never read
    DurableRun run(PlanVm planVm, RunRequest checked, String id, String parent, int stepsBefore, int session) {
        try (Heartbeat alive = store.heartbeat(id)) {
            return ended(id, parent, stepsBefore, execute(planVm, checked, id, stepsBefore, session));
        }
    }

    /** One session of stored run {@code id}, journaled as session {@code session}, approvals kept in the store. */
    RunResult execute(PlanVm planVm, RunRequest checked, String id, int stepsBefore, int session) {
        Approvals reviewer = checked.approvals() != null ? checked.approvals() : planVm.reviewer();
        StoreJournal journal = new StoreJournal(store, id, stepsBefore, session, checked.plan())
                .reviewer(reviewer)
                .sleepsWait(sleepsWait);
        return planVm.run(checked.toBuilder()
                .journal(journal)
                .approvals(new StoreApprovals(store, id, journal, reviewer))
                .build());
    }

    /** How a session of run {@code id} ended, with the calls it waits for when it ended waiting. */
    DurableRun ended(String id, String parent, int stepsBefore, RunResult result) {
        return new DurableRun(
                id,
                parent,
                stepsBefore,
                result,
                result.waiting()
                        ? waits.of(WaitTrees.tree(store, DurableRuns.find(store, id))
                                .waiting())
                        : List.of());
    }
}
