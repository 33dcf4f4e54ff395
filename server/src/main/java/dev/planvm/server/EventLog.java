package dev.planvm.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The events of one run in this process, in id order, at most {@code capacity} of them (the oldest are
 * dropped; the committed steps among them can be rebuilt from the store). Readers wait for new events;
 * a run's session appends until it ends, a resumed session goes on in the same log. Thread-safe.
 */
final class EventLog {

    private final int capacity;
    private final Deque<RunEvent> events = new ArrayDeque<>();
    private long lastId = -1;
    private long dropped;
    private boolean open;

    EventLog(int capacity) {
        this.capacity = capacity;
    }

    /** A session starts appending (a fresh run, or a resume). */
    synchronized void open() {
        open = true;
    }

    /** Appends an event whose id is larger than every earlier one (else it is dropped); wakes the readers. */
    synchronized void append(long id, String type, ObjectNode data) {
        if (id <= lastId) {
            return;
        }
        lastId = id;
        events.addLast(new RunEvent(id, type, data));
        if (events.size() > capacity) {
            events.removeFirst();
            dropped++;
        }
        notifyAll();
    }

    /** The session ended (after its last event); readers that caught up stop waiting. */
    synchronized void close() {
        open = false;
        notifyAll();
    }

    /** Keeps only the newest {@code keep} events (a finished run's log kept for late readers). */
    synchronized void trim(int keep) {
        while (events.size() > keep) {
            events.removeFirst();
            dropped++;
        }
    }

    synchronized boolean isOpen() {
        return open;
    }

    /** The id of the oldest event still held, or {@code Long.MAX_VALUE} when none is. */
    synchronized long oldestId() {
        return events.isEmpty() ? Long.MAX_VALUE : events.peekFirst().id();
    }

    synchronized long dropped() {
        return dropped;
    }

    /** The events after {@code id}, waiting up to {@code timeoutMillis} for one while the log is open. */
    synchronized List<RunEvent> after(long id, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (open && lastId <= id) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                break;
            }
            wait(left);
        }
        List<RunEvent> newer = new ArrayList<>();
        for (RunEvent event : events) {
            if (event.id() > id) {
                newer.add(event);
            }
        }
        return newer;
    }
}
