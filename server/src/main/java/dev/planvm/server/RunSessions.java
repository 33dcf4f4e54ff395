package dev.planvm.server;

import dev.planvm.tools.Redactor;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunHooks;
import dev.planvm.vm.run.Threads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs this service executes: a bounded number at once (a request beyond it is refused as busy),
 * each on its own thread with its {@link RunControl} and {@link EventLog}; the logs of finished runs
 * are kept for a while. Shutting down interrupts every run at its next commit point. Thread-safe.
 */
final class RunSessions {

    private static final Logger log = LoggerFactory.getLogger(RunSessions.class);
    /** Events a finished run's log keeps (its committed steps are rebuilt from the store). */
    static final int FINISHED_LOG_EVENTS = 500;

    /** One session of a run, as the durable-runs API runs it. */
    @FunctionalInterface
    interface Work {
        /** Runs the session with these hooks; tells {@code stored} the run's id and committed steps once it is stored. */
        DurableRun run(RunHooks hooks, Stored stored);
    }

    /** Told when the run is stored. */
    @FunctionalInterface
    interface Stored {
        void as(String id, int stepsBefore);
    }

    /** A run handed to the service: its id, and its session's end. */
    record Submitted(String id, CompletableFuture<DurableRun> done) {}

    private record Active(RunControl control, EventLog log, CompletableFuture<DurableRun> done) {}

    private final ExecutorService executor = Threads.perTask("planvm-run");
    private final Semaphore slots;
    private final Map<String, Active> active = new ConcurrentHashMap<>();
    private final Map<String, EventLog> finished;
    private final Metrics metrics;
    private final Redactor redactor;
    private final int logCapacity;
    private volatile boolean accepting = true;

    RunSessions(ServiceSettings settings, Metrics metrics, Redactor redactor) {
        this.slots = new Semaphore(settings.maxActiveRuns());
        this.metrics = metrics;
        this.redactor = redactor;
        this.logCapacity = settings.eventLogCapacity();
        int kept = settings.finishedLogsKept();
        this.finished = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, EventLog> eldest) {
                return size() > kept;
            }
        });
    }

    /**
     * Runs one session on its own thread and returns once it is under way (or refused). The caller's
     * failures ({@link dev.planvm.vm.PlanRejectedException}, {@link DurableRunException}) are thrown here.
     *
     * @param knownId      the run's id when it exists already (a resume), else {@code null}
     * @param session      the session number (1 for a new run)
     * @param blockForSlot wait for a free slot (resuming interrupted runs on start) instead of refusing as busy
     */
    Submitted submit(String knownId, int session, Work work, boolean blockForSlot) {
        if (!accepting) {
            throw new ServiceException(
                    ServiceException.Kind.SHUTTING_DOWN, "the server is shutting down and starts no run");
        }
        if (blockForSlot) {
            slots.acquireUninterruptibly();
        } else if (!slots.tryAcquire()) {
            throw new ServiceException(
                    ServiceException.Kind.BUSY,
                    "the server runs " + (active.size()) + " runs, its limit; " + "try again shortly");
        }
        EventLog events =
                knownId == null ? new EventLog(logCapacity) : logOf(knownId).orElseGet(() -> new EventLog(logCapacity));
        CompletableFuture<String> stored = new CompletableFuture<>();
        String[] id = {knownId};
        RunEvents listener = new RunEvents(events, session, session > 1, redactor, () -> stored.complete(id[0]));
        RunControl control = new RunControl();
        CompletableFuture<DurableRun> done = new CompletableFuture<>();
        RunHooks hooks = RunHooks.NONE
                .withListeners(List.of(listener, metrics))
                .withCallListeners(List.of(listener, metrics))
                .withControl(control);
        metrics.active(1);
        try {
            executor.execute(() -> {
                try {
                    DurableRun run = work.run(hooks, (runId, stepsBefore) -> {
                        id[0] = runId;
                        listener.stored(runId, stepsBefore);
                        events.open();
                        active.put(runId, new Active(control, events, done));
                    });
                    stored.complete(run.id()); // a session that ended before it started (nothing to run)
                    done.complete(run);
                } catch (RuntimeException | Error e) {
                    stored.completeExceptionally(e);
                    done.completeExceptionally(e);
                } finally {
                    events.close();
                    events.trim(FINISHED_LOG_EVENTS);
                    if (id[0] != null) {
                        active.remove(id[0]);
                        finished.put(id[0], events);
                    }
                    metrics.active(-1);
                    slots.release();
                }
            });
        } catch (RuntimeException rejected) {
            metrics.active(-1);
            slots.release();
            throw new ServiceException(
                    ServiceException.Kind.BUSY, "the server cannot start another thread: " + rejected);
        }
        try {
            return new Submitted(stored.get(), done);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException(ServiceException.Kind.SHUTTING_DOWN, "interrupted while starting the run");
        }
    }

    /** The live log of run {@code id}, while it runs here or for a while after. */
    Optional<EventLog> logOf(String id) {
        Active running = active.get(id);
        return running != null ? Optional.of(running.log()) : Optional.ofNullable(finished.get(id));
    }

    boolean isActive(String id) {
        return active.containsKey(id);
    }

    /** Asks run {@code id} to stop at its next commit point, failed; false when it does not run here. */
    boolean cancel(String id, String reason) {
        Active running = active.get(id);
        if (running == null) {
            return false;
        }
        running.control().cancel(reason);
        return true;
    }

    /** The end of run {@code id}'s session when it runs here. */
    Optional<CompletableFuture<DurableRun>> done(String id) {
        return Optional.ofNullable(active.get(id)).map(Active::done);
    }

    int activeCount() {
        return active.size();
    }

    /**
     * Stops accepting runs, interrupts every active run at its next commit point, and waits up to
     * {@code grace} for them; runs still in a step then are released in the store (interrupted: a restart
     * resumes them). Returns the ids of those that did not stop in time.
     */
    List<String> shutdown(Duration grace, RunStore store) {
        accepting = false;
        active.values().forEach(running -> running.control().interrupt("the server is shutting down"));
        long deadline = System.nanoTime() + grace.toNanos();
        List<String> late = new ArrayList<>();
        for (Map.Entry<String, Active> running : Map.copyOf(active).entrySet()) {
            try {
                running.getValue().done().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                late.add(running.getKey());
            } catch (ExecutionException e) {
                // it ended, failed: the store says so
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                late.add(running.getKey());
            }
        }
        for (String id : late) {
            try {
                store.interrupt(id);
            } catch (RuntimeException e) {
                log.warn("cannot mark run {} interrupted: {}", id, e.getMessage());
            }
        }
        executor.shutdown();
        return late;
    }
}
