package dev.planvm.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The timers of a service's sleeping runs: a run that reaches a {@code sleep} with time left stops, waiting, and
 * holds no thread and no run slot; its timer wakes it when it is due. One daemon thread for all timers; waking a
 * run only hands it to the service ({@code wake}), which starts its session on a thread of its own. A run the
 * service cannot start now (every slot busy) is tried again a little later. Thread-safe.
 */
final class RunTimers implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(RunTimers.class);

    /** How long a wake that found every run slot busy waits before it tries again. */
    static final Duration BUSY_RETRY = Duration.ofSeconds(1);

    private final Clock clock;
    private final Predicate<String> wake;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "planvm-timers");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, ScheduledFuture<?>> pending = new ConcurrentHashMap<>();

    /**
     * @param clock what wake times are compared with (the VM's: the one its sleeps read)
     * @param wake  wakes run {@code id}: true when it is handled (started, or nothing to do), false when it could
     *              not start now (the service is busy) and should be tried again
     */
    RunTimers(Clock clock, Predicate<String> wake) {
        this.clock = clock;
        this.wake = wake;
    }

    /** Wakes run {@code id} at {@code wakeAt} (at once when it is due), replacing a timer it had. */
    void schedule(String id, Instant wakeAt) {
        Duration delay = Duration.between(clock.instant(), wakeAt);
        at(id, delay.isNegative() ? Duration.ZERO : delay);
    }

    /** Forgets the timer of run {@code id} (cancelled, or continued by other means). */
    void cancel(String id) {
        ScheduledFuture<?> timerOf = pending.remove(id);
        if (timerOf != null) {
            timerOf.cancel(false);
        }
    }

    /** How many runs have a timer. */
    int count() {
        return pending.size();
    }

    private void at(String id, Duration delay) {
        if (timer.isShutdown()) {
            return;
        }
        ScheduledFuture<?>[] self = new ScheduledFuture<?>[1];
        synchronized (pending) {
            self[0] = timer.schedule(() -> fire(id, self), delay.toNanos(), TimeUnit.NANOSECONDS);
            ScheduledFuture<?> before = pending.put(id, self[0]);
            if (before != null) {
                before.cancel(false);
            }
        }
    }

    private void fire(String id, ScheduledFuture<?>[] self) {
        synchronized (pending) {
            if (!pending.remove(id, self[0])) {
                return; // replaced or cancelled meanwhile
            }
        }
        boolean handled;
        try {
            handled = wake.test(id);
        } catch (RuntimeException e) {
            log.warn("cannot wake sleeping run {}: {}", id, e.getMessage());
            handled = true;
        }
        if (!handled) {
            at(id, BUSY_RETRY);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        pending.clear();
    }
}
