package dev.planvm.tools.call;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Listeners told of events in order, where a listener that throws never breaks what it observes: its first
 * failure is logged once at WARN, with the listener's class and the event, and its later failures are not
 * logged (it is still told every event). The one guard of the project's listeners: the call chain's
 * {@link CallListener}s and a run's listeners (the VM's fan-out) both tell through it. Thread-safe.
 *
 * @param <L> the listener type
 */
public final class GuardedListeners<L> {

    private static final Logger log = LoggerFactory.getLogger(GuardedListeners.class);

    private final List<Guarded<L>> listeners;

    /** @param listeners told in this order */
    public GuardedListeners(List<? extends L> listeners) {
        this.listeners = listeners.stream().map(l -> new Guarded<L>(l)).toList();
    }

    /** Whether nobody listens. */
    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    public int size() {
        return listeners.size();
    }

    /** Tells every listener {@code event} by {@code told}; a listener's failure is logged (once) and ignored. */
    public void tell(String event, Consumer<? super L> told) {
        for (Guarded<L> each : listeners) {
            try {
                told.accept(each.listener);
            } catch (RuntimeException e) {
                each.failed(event, e);
            }
        }
    }

    @Override
    public String toString() {
        return listeners.stream().map(g -> g.listener).toList().toString();
    }

    /** One listener and whether its failure was logged already. */
    private static final class Guarded<L> {
        private final L listener;
        private final AtomicBoolean logged = new AtomicBoolean();

        Guarded(L listener) {
            this.listener = listener;
        }

        void failed(String event, RuntimeException e) {
            if (logged.compareAndSet(false, true)) {
                log.warn(
                        "listener {} failed in {} and is ignored (its later failures are not logged): {}",
                        listener.getClass().getName(),
                        event,
                        e.toString());
                log.debug("listener failure", e);
            }
        }
    }
}
