package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The waiting tree of a stored run: a run that calls a plan tool waits while its child run waits, so a wait is
 * found by walking down to the run that waits for a call of its own, and a decision continues the top of the tree
 * ({@link DurableRuns.Tree}); cancelling a waiting run fails every run of its tree down to that one. Walks stop at
 * 64 levels.
 */
final class WaitTrees {

    private WaitTrees() {}

    /** See {@link DurableRuns#tree}. */
    static DurableRuns.Tree tree(RunStore store, StoredRun run) {
        StoredRun waiting = run;
        for (int depth = 0; depth < 64 && waitsForAChild(store, waiting); depth++) {
            Optional<StoredRun> child = waitingChild(store, waiting);
            if (child.isEmpty()) {
                break;
            }
            waiting = child.get();
        }
        StoredRun root = run;
        for (int height = 0; height < 64 && root.status() == RunStatus.WAITING; height++) {
            Optional<StoredRun> caller = store.caller(root.id())
                    .flatMap(c -> store.find(c.runId()))
                    .filter(c -> c.status() == RunStatus.WAITING);
            if (caller.isEmpty()) {
                break;
            }
            root = caller.get();
        }
        return new DurableRuns.Tree(waiting, root);
    }

    /** See {@link DurableRuns#cancelWaiting}. */
    static boolean cancelWaiting(RunStore store, StoredRun run, String reason) {
        List<StoredRun> waitingChildren = new ArrayList<>();
        StoredRun waiting = run;
        for (int depth = 0; depth < 64 && waitsForAChild(store, waiting); depth++) {
            Optional<StoredRun> child = waitingChild(store, waiting);
            if (child.isEmpty()) {
                break;
            }
            waiting = child.get();
            waitingChildren.add(waiting);
        }
        String what = waiting.pendingApproval().isPresent()
                ? "approval"
                : store.pendingInput(waiting.id()).isPresent()
                        ? "input"
                        : store.wakeAt(waiting.id()).isPresent() ? "its sleep to end" : "a child run";
        String why = reason == null || reason.isBlank() ? "" : ": " + reason;
        if (!store.cancelWaiting(run.id(), "the run was cancelled while waiting for " + what + why)) {
            return false;
        }
        for (StoredRun child : waitingChildren) {
            store.cancelWaiting(
                    child.id(), "its parent run " + run.id() + " was cancelled while waiting for " + what + why);
        }
        return true;
    }

    /** The newest child run of {@code run} that waits. */
    private static Optional<StoredRun> waitingChild(RunStore store, StoredRun run) {
        return store.children(run.id()).stream()
                .filter(c -> c.summary().status() == RunStatus.WAITING)
                .reduce((first, last) -> last)
                .flatMap(c -> store.find(c.summary().id()));
    }

    /** Whether {@code run} waits with no call of its own pending: one of its child runs waits. */
    private static boolean waitsForAChild(RunStore store, StoredRun run) {
        return run.status() == RunStatus.WAITING
                && run.pendingApproval().isEmpty()
                && store.pendingInput(run.id()).isEmpty();
    }
}
