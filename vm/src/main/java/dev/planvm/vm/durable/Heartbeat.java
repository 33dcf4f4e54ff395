package dev.planvm.vm.durable;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews this process's lease on a stored run every third of the lease's time while the run is
 * worked on, so another process sees it is alive; closing it stops. A process that dies stops
 * renewing, and its lease runs out.
 */
final class Heartbeat implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Heartbeat.class);
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "planvm-run-lease");
        thread.setDaemon(true);
        return thread;
    });

    private final ScheduledFuture<?> beat;
    private final RunStore store;
    private final String runId;

    Heartbeat(RunStore store, String runId, Duration lease) {
        this.store = store;
        this.runId = runId;
        long every = Math.max(50, lease.toMillis() / 3);
        this.beat = TIMER.scheduleAtFixedRate(
                () -> {
                    try {
                        store.renewLease(runId);
                    } catch (RuntimeException e) {
                        log.warn("cannot renew the lease of run {}: {}", runId, e.getMessage());
                    }
                },
                every,
                every,
                TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        beat.cancel(false);
        store.release(runId);
    }
}
