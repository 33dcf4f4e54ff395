package dev.planvm.server;

import dev.planvm.vm.durable.StoredRun;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The events of one run for one reader, from a given id on: the live log while this server runs the run
 * (and a while after), else the events rebuilt from the store. Events the live log no longer holds are
 * rebuilt from the store (committed steps), so a reader that resumes from an old id misses no commit.
 */
public final class EventFeed {

    private final EventLog log;
    private final Supplier<StoredRun> stored;
    private List<RunEvent> rebuilt;
    private boolean storedServed;

    /** @param log the live log, or {@code null}; @param stored reads the run from the store */
    EventFeed(EventLog log, Supplier<StoredRun> stored) {
        this.log = log;
        this.stored = stored;
    }

    /**
     * The events after {@code after}, waiting up to {@code waitMillis} while the run may still produce some
     * (an empty list then means: nothing new yet).
     */
    public List<RunEvent> next(long after, long waitMillis) throws InterruptedException {
        if (log == null) {
            storedServed = true;
            return newer(rebuilt(), after, Long.MAX_VALUE);
        }
        List<RunEvent> events = new ArrayList<>();
        long oldest = log.oldestId();
        if (after < oldest && log.dropped() > 0) {
            rebuilt = null; // the store has grown since
            events.addAll(newer(rebuilt(), after, oldest));
        }
        if (!events.isEmpty()) {
            return events;
        }
        return log.after(after, waitMillis);
    }

    /** Whether no event will come after {@code after} any more: the run is not running here and the reader caught up. */
    public boolean finished(long after) throws InterruptedException {
        if (log == null) {
            return storedServed || newer(rebuilt(), after, Long.MAX_VALUE).isEmpty();
        }
        return !log.isOpen() && log.after(after, 0).isEmpty();
    }

    private List<RunEvent> rebuilt() {
        if (rebuilt == null) {
            rebuilt = StoredEvents.of(stored.get());
        }
        return rebuilt;
    }

    private static List<RunEvent> newer(List<RunEvent> events, long after, long before) {
        List<RunEvent> newer = new ArrayList<>();
        for (RunEvent event : events) {
            if (event.id() > after && event.id() < before) {
                newer.add(event);
            }
        }
        return newer;
    }
}
