package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunResult;
import java.util.List;

/**
 * A run kept in the run store and how this session of it ended (a later resume may continue it).
 *
 * @param id          the stored run's id ({@code planvm show ID}, {@code planvm resume ID})
 * @param parentRun   the run a rerun started from, or {@code null}
 * @param stepsBefore committed steps this session started after: 0 for a new run, the earlier
 *                    sessions' steps for a resume, the kept steps for a rerun
 * @param result      the outcome of this session
 * @param waiting     when it ended waiting: the calls the run waits for ({@link DurableRuns#waiting}), the first
 *                    the one {@code result.pending()} names; else empty
 */
public record DurableRun(String id, String parentRun, int stepsBefore, RunResult result, List<WaitingCall> waiting) {
    public DurableRun {
        waiting = List.copyOf(waiting);
    }

    /** A session that does not wait. */
    public DurableRun(String id, String parentRun, int stepsBefore, RunResult result) {
        this(id, parentRun, stepsBefore, result, List.of());
    }
}
