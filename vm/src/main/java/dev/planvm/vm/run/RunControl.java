package dev.planvm.vm.run;

import java.util.Objects;
import java.util.Optional;

/**
 * Stops one run from outside, at its next commit point (before its next step starts): a step in
 * progress finishes and commits first. {@link #cancel} ends the run failed; {@link #interrupt} ends it
 * interrupted ({@link RunStatus#INTERRUPTED}: a durable run's store keeps it resumable), e.g. when a server
 * shuts down. Thread-safe; the first request wins.
 */
public final class RunControl {

    /** A request to stop. @param cancel cancel (true) or interrupt (false) */
    public record Stop(boolean cancel, String reason) {
        public Stop {
            Objects.requireNonNull(reason, "reason");
        }
    }

    private volatile Stop stop;

    /** Asks the run to stop at its next commit point and fail with {@code the run was cancelled: REASON}. */
    public synchronized void cancel(String reason) {
        if (stop == null) {
            stop = new Stop(true, reason == null || reason.isBlank() ? "no reason given" : reason);
        }
    }

    /** Asks the run to stop at its next commit point, interrupted (resumable). */
    public synchronized void interrupt(String reason) {
        if (stop == null) {
            stop = new Stop(false, reason == null || reason.isBlank() ? "interrupted" : reason);
        }
    }

    /** The request to stop, if any. */
    public Optional<Stop> requested() {
        return Optional.ofNullable(stop);
    }
}
