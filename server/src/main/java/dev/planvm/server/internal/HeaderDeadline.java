package dev.planvm.server.internal;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Ends a connection whose request head (request line and headers) has not arrived within a deadline —
 * what Go calls {@code ReadHeaderTimeout}, and what a slowloris client (one header line every few seconds,
 * which resets any idle timeout) is stopped by. The deadline counts from the connection's opening, or on a
 * kept-alive connection from the first byte of its next request; a connection that waits quietly between
 * requests is left to the idle timeout. Jetty parses request heads without holding a thread, so a slow
 * client costs a connection slot (bounded too) until then, never a thread.
 *
 * <p>A sweep every quarter of the deadline (at most a second apart) looks at every connected endpoint: how
 * many request heads it completed ({@link Connection#getMessagesIn}), how many answers it started ({@link
 * Connection#getMessagesOut}) and how many bytes it read ({@link Connection#getBytesIn}). A connection with
 * more heads than answers is inside a request (the handler owns it); otherwise new bytes without a new head
 * start its clock. So a client is cut between the deadline and one sweep period after it.
 */
public final class HeaderDeadline extends AbstractLifeCycle {

    private static final long NONE = Long.MIN_VALUE;

    private final ServerConnector connector;
    private final long deadlineNanos;
    private final long periodMillis;
    private final AtomicLong cut = new AtomicLong();
    private Map<EndPoint, Mark> marks = new HashMap<>(); // the sweep's own: one sweep at a time
    private volatile Scheduler.Task next;

    private record Mark(long heads, long bytes, long since) {}

    public HeaderDeadline(ServerConnector connector, Duration deadline) {
        if (deadline.isZero() || deadline.isNegative()) {
            throw new IllegalArgumentException("the header deadline must be positive, not " + deadline);
        }
        this.connector = connector;
        this.deadlineNanos = deadline.toNanos();
        this.periodMillis = Math.max(10, Math.min(1_000, deadline.toMillis() / 4));
    }

    /** How many connections it has ended so far. */
    public long cut() {
        return cut.get();
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task task = next;
        if (task != null) {
            task.cancel();
        }
    }

    private void schedule() {
        if (isRunning() || isStarting()) {
            next = connector.getScheduler().schedule(this::sweepAndReschedule, periodMillis, TimeUnit.MILLISECONDS);
        }
    }

    private synchronized void sweepAndReschedule() {
        try {
            sweep(System.nanoTime());
        } finally {
            schedule();
        }
    }

    private void sweep(long now) {
        Map<EndPoint, Mark> seen = new HashMap<>();
        for (EndPoint endPoint : connector.getConnectedEndPoints()) {
            Connection connection = endPoint.getConnection();
            if (connection == null || !endPoint.isOpen()) {
                continue;
            }
            long heads = connection.getMessagesIn();
            long answers = connection.getMessagesOut();
            long bytes = connection.getBytesIn();
            Mark mark = marks.get(endPoint);
            if (mark == null) {
                long age = TimeUnit.MILLISECONDS.toNanos(
                        Math.max(0, System.currentTimeMillis() - endPoint.getCreatedTimeStamp()));
                mark = new Mark(heads, bytes, heads == 0 ? now - age : NONE);
            } else if (heads > answers || heads != mark.heads()) {
                mark = new Mark(heads, bytes, NONE); // inside a request, or one came and was answered
            } else if (mark.since() == NONE && bytes != mark.bytes()) {
                mark = new Mark(heads, bytes, now); // the next request began to arrive
            }
            if (heads <= answers && mark.since() != NONE && now - mark.since() > deadlineNanos) {
                cut.incrementAndGet();
                endPoint.close();
                continue;
            }
            seen.put(endPoint, mark);
        }
        marks = seen;
    }
}
