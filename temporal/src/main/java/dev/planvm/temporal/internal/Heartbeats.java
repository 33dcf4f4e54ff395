package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.AttemptRecord;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Keeps a long call's activity alive: while the tool works, a shared timer heartbeats every third
 * of the heartbeat timeout (a call shorter than that never heartbeats, so costs nothing). When the
 * server answers a heartbeat with a cancellation (the workflow discarded the call) or the attempt
 * has timed out, the thread running the tool is interrupted. A worker that dies stops
 * heartbeating, and the server retries its attempt elsewhere after the heartbeat timeout.
 */
final class Heartbeats {

    private final ScheduledExecutorService timer;
    private final Duration every;

    Heartbeats(ScheduledExecutorService timer, Duration heartbeatTimeout) {
        this.timer = timer;
        this.every = heartbeatTimeout.dividedBy(3).isZero() ? Duration.ofMillis(1) : heartbeatTimeout.dividedBy(3);
    }

    /** Starts heartbeating for the attempt running on {@code worker}, carrying {@code attempts}. */
    Beat start(ActivityExecutionContext context, AttemptRecord[] attempts, Thread worker) {
        Beat beat = new Beat(worker);
        beat.future = timer.scheduleAtFixedRate(
                () -> {
                    try {
                        context.heartbeat(attempts);
                    } catch (ActivityCompletionException stopped) {
                        beat.stop();
                        throw stopped; // ends the schedule
                    } catch (RuntimeException ignored) {
                        // a heartbeat that cannot be sent now is sent with the next one
                    }
                },
                every.toMillis(),
                every.toMillis(),
                TimeUnit.MILLISECONDS);
        return beat;
    }

    /** The heartbeats of one attempt, on the thread that runs it. */
    static final class Beat implements AutoCloseable {
        private final Thread worker;
        private volatile ScheduledFuture<?> future;
        private boolean running = true;
        private boolean stopped;

        Beat(Thread worker) {
            this.worker = worker;
        }

        /** The server said the attempt is over: interrupt the tool, if it still runs. */
        private synchronized void stop() {
            stopped = true;
            if (running) {
                worker.interrupt();
            }
        }

        /** Whether the server said the attempt is over (cancelled or timed out). */
        synchronized boolean stopped() {
            return stopped;
        }

        /** Ends the heartbeats; must be called on the worker thread, which it leaves uninterrupted. */
        @Override
        public void close() {
            future.cancel(false);
            synchronized (this) {
                running = false;
            }
            Thread.interrupted(); // an interrupt meant for the tool must not reach the next activity on this thread
        }
    }
}
