package dev.planvm.server;

import static dev.planvm.server.RunLookup.guard;

import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.RunSummary;
import dev.planvm.vm.durable.StoredRun;
import dev.planvm.vm.run.RunStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How sessions of runs reach the service's threads ({@link RunSessions}), and the sessions the service starts by
 * itself: a run that stops waiting at a sleep gets the timer that wakes it ({@link RunTimers}), a timer due
 * continues its run, and a server that starts again resumes the interrupted runs and sets the timers of the
 * sleeping runs its origin started.
 */
final class Submissions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlanService.class);

    private final RunStore store;
    private final DurableRuns runs;
    private final RunSessions sessions;
    private final RunLookup lookup;
    private final ServiceSettings settings;
    private final RunTimers timers;

    Submissions(
            RunStore store,
            DurableRuns runs,
            RunSessions sessions,
            RunLookup lookup,
            ServiceSettings settings,
            Clock clock) {
        this.store = store;
        this.runs = runs;
        this.sessions = sessions;
        this.lookup = lookup;
        this.settings = settings;
        this.timers = new RunTimers(clock, this::wake);
    }

    /** Hands a session to the service's threads; when it ends, a run that stopped sleeping gets its timer. */
    PlanService.Submitted submit(int session, RunSessions.Work work, boolean blockForSlot) {
        try {
            RunSessions.Submitted submitted = sessions.submit(session, work, blockForSlot);
            submitted.done().whenComplete((run, failure) -> afterSession(submitted.id()));
            return new PlanService.Submitted(submitted.id(), submitted.done());
        } catch (RuntimeException e) {
            throw RunLookup.failure(e);
        }
    }

    /** A new session of stored run {@code run}, resumed live (a timer due, an interrupted run at start). */
    private PlanService.Submitted resume(StoredRun run, boolean blockForSlot) {
        return submit(
                run.sessions() + 1,
                new RunSessions.Work(
                        own -> new RunSessions.Created(run.id(), run.steps().size()),
                        (runId, own) -> runs.resume(runId, own.apply(session(RunMode.live())), Map.of(), false)),
                blockForSlot);
    }

    /** What a session of a stored run brings: its mode (its listeners and control come from {@link RunSessions}). */
    static RunRequest session(RunMode mode) {
        return RunRequest.builder().mode(mode).build();
    }

    /** The timer of run {@code id} no longer wakes it (it was cancelled). */
    void cancelTimer(String id) {
        timers.cancel(id);
    }

    /** See {@link PlanService#resumeInterrupted}. */
    int resumeInterrupted() {
        List<String> ids = new ArrayList<>();
        for (int offset = 0; ; offset += 200) {
            int from = offset;
            List<RunSummary> page = guard(() -> store.list(200, from, RunStatus.RUNNING));
            page.stream().filter(r -> !r.live()).forEach(r -> ids.add(r.id()));
            if (page.size() < 200) {
                break;
            }
        }
        List<String> found = new ArrayList<>();
        for (String id : ids) {
            StoredRun run = guard(() -> store.find(id)).orElse(null);
            if (run != null
                    && settings.origin().equals(run.options().origin())
                    && run.mode().equals("live")) {
                found.add(run.id());
            }
        }
        if (found.isEmpty()) {
            return 0;
        }
        Thread resumer = new Thread(
                () -> { // one at a time: each waits for a free slot
                    for (String id : found) {
                        try {
                            StoredRun run = lookup.find(id);
                            resume(run, true);
                            log.info("resuming interrupted run {}", run.id());
                        } catch (RuntimeException e) {
                            log.warn("cannot resume interrupted run {}: {}", id, e.getMessage());
                        }
                    }
                },
                "planvm-resume");
        resumer.setDaemon(true);
        resumer.start();
        return found.size();
    }

    /** See {@link PlanService#wakeSleeping}. */
    int wakeSleeping() {
        int count = 0;
        for (RunStore.Sleeping sleeping : guard(store::sleeping)) {
            try {
                StoredRun run = guard(() -> store.find(sleeping.id())).orElse(null);
                StoredRun root = run == null ? null : lookup.tree(run).root();
                if (root != null
                        && settings.origin().equals(root.options().origin())
                        && root.mode().equals("live")) {
                    timers.schedule(sleeping.id(), sleeping.wakeAt());
                    count++;
                }
            } catch (RuntimeException e) {
                log.warn("cannot set the timer of sleeping run {}: {}", sleeping.id(), e.getMessage());
            }
        }
        return count;
    }

    /**
     * After a session: a run that stopped waiting at a sleep — its own, or a child run's (a plan tool's) — gets the
     * timer that wakes it.
     */
    private void afterSession(String id) {
        try {
            StoredRun run = store.find(id).filter(r -> r.id().equals(id)).orElse(null);
            if (run == null || run.status() != RunStatus.WAITING) {
                return;
            }
            StoredRun waiting = runs.tree(run).waiting();
            store.wakeAt(waiting.id()).ifPresent(at -> timers.schedule(waiting.id(), at));
        } catch (RuntimeException e) {
            log.warn("cannot set the timer of sleeping run {}: {}", id, e.getMessage());
        }
    }

    /**
     * A timer is due: continues the sleeping run {@code id} (the top of its waiting tree: a sleeping child's
     * parent continues it) in a session of its own. False when no slot is free now (the timer tries again).
     */
    private boolean wake(String id) {
        StoredRun sleeping = store.find(id).filter(r -> r.id().equals(id)).orElse(null);
        if (sleeping == null || store.wakeAt(id).isEmpty()) {
            return true; // cancelled, or continued otherwise
        }
        StoredRun root = runs.tree(sleeping).root();
        if (sessions.isActive(root.id())) {
            return false; // its session is ending (or another continues it): look again shortly
        }
        try {
            resume(root, false);
            return true;
        } catch (ServiceException e) {
            if (e.kind() == ServiceException.Kind.BUSY) {
                return false;
            }
            if (e.kind() != ServiceException.Kind.SHUTTING_DOWN) {
                log.warn("cannot wake sleeping run {}: {}", id, e.getMessage());
            }
            return true;
        }
    }

    /** Stops the timers: sleeping runs stay waiting, their wake time stored. */
    @Override
    public void close() {
        timers.close();
    }
}
