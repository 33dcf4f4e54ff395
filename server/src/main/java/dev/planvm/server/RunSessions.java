package dev.planvm.server;

import dev.planvm.tools.Redactor;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.durable.DurableRun;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.run.RunControl;
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
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;
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

    /**
     * One session of a run, as the durable-runs API runs it. {@code own} adds the session's own listeners and
     * control to a request (the VM's {@link RunRequest}, which the service builds from this package's wire form).
     *
     * @param create on the caller's thread, before anything runs: stores a new run (nothing executes) or names
     *               the stored run that continues; its failures are the request's
     * @param run    on the session's thread: runs the session of run {@code id}
     */
    record Work(
            Function<UnaryOperator<RunRequest>, Created> create,
            BiFunction<String, UnaryOperator<RunRequest>, DurableRun> run) {}

    /** The run a session runs: its id and the steps it had committed before. */
    record Created(String id, int stepsBefore) {}

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
     * Creates (or names) the session's run on the caller's thread, runs it on its own thread and returns once it
     * is under way (or refused). The caller's failures ({@link dev.planvm.vm.PlanRejectedException},
     * {@link DurableRunException}) are thrown here.
     *
     * @param session      the session number (1 for a new run)
     * @param blockForSlot wait for a free slot (resuming interrupted runs on start) instead of refusing as busy
     */
    Submitted submit(int session, Work work, boolean blockForSlot) {
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
        CompletableFuture<Void> started = new CompletableFuture<>();
        RunEvents listener = new RunEvents(session, session > 1, redactor, () -> started.complete(null));
        RunControl control = new RunControl();
        UnaryOperator<RunRequest> own = request -> request.toBuilder()
                .listeners(List.of(listener, metrics))
                .control(control)
                .build();
        metrics.active(1);
        Created created;
        try {
            created = work.create().apply(own);
        } catch (RuntimeException | Error e) {
            metrics.active(-1);
            slots.release();
            throw e;
        }
        String id = created.id();
        EventLog events = logOf(id).orElseGet(() -> new EventLog(logCapacity));
        listener.stored(id, created.stepsBefore(), events);
        events.open();
        CompletableFuture<DurableRun> done = new CompletableFuture<>();
        active.put(id, new Active(control, events, done));
        try {
            executor.execute(() -> {
                DurableRun run = null;
                Throwable failed = null;
                try {
                    run = work.run().apply(id, own);
                } catch (RuntimeException | Error e) {
                    failed = e;
                } finally {
                    events.close();
                    events.trim(FINISHED_LOG_EVENTS);
                    active.remove(id);
                    finished.put(id, events);
                    metrics.active(-1);
                    slots.release();
                }
                // only now: whoever sees the session end (a client of ?wait=true) no longer finds it active, so a
                // cancel that follows ends the run's wait rather than asking a session that is gone to stop
                if (failed == null) {
                    started.complete(null); // a session that ended before it started (nothing to run)
                    done.complete(run);
                } else {
                    started.completeExceptionally(failed);
                    done.completeExceptionally(failed);
                }
            });
        } catch (RuntimeException rejected) {
            active.remove(id);
            events.close();
            metrics.active(-1);
            slots.release();
            throw new ServiceException(
                    ServiceException.Kind.BUSY, "the server cannot start another thread: " + rejected);
        }
        try {
            started.get();
            return new Submitted(id, done);
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

    /**
     * Asks run {@code id} to stop at its next commit point, failed: the end of the session asked, or empty when
     * the run does not run here.
     */
    Optional<CompletableFuture<DurableRun>> cancel(String id, String reason) {
        Active running = active.get(id);
        if (running == null) {
            return Optional.empty();
        }
        running.control().cancel(reason);
        return Optional.of(running.done());
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
