package dev.planvm.tools.chain.internal;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The slots of one tool (or of the LLM provider, for {@code llm_generate} and {@code condition_prompt}s), shared
 * by every run of a VM: a call waits for a slot before it reaches the tool and gives it back after. The number
 * of slots is fixed ({@code --tool-concurrency TOOL=N}) or adaptive ({@link AdaptiveLimit}), never above its
 * maximum.
 *
 * <p><b>Fair between owners.</b> A call waits in its owner's queue (an owner is one run tree: a run and its
 * plan-tool children); a free slot goes to the waiting owner that holds the fewest slots of this tool (the
 * earliest waiter on a tie), so one run with a 1,000-element map queued cannot keep another run's single call
 * waiting behind it: on {@code planvm serve}, no run takes every slot from the others. Within an owner, calls
 * are served in the order they came.
 */
final class ToolLimiter {

    /** A slot held by one call; give it back once with {@link #release}. */
    final class Permit {
        private final Owner owner;
        private final long startNanos;
        private final long waitedNanos;
        private final int inFlightAtStart;
        private final int limitAtStart;
        private boolean released;

        private Permit(Owner owner, long startNanos, long waitedNanos, int inFlightAtStart, int limitAtStart) {
            this.owner = owner;
            this.startNanos = startNanos;
            this.waitedNanos = waitedNanos;
            this.inFlightAtStart = inFlightAtStart;
            this.limitAtStart = limitAtStart;
        }

        /** How long the call waited for its slot. */
        long waitedNanos() {
            return waitedNanos;
        }

        /** The limit when the call got its slot. */
        int limitAtStart() {
            return limitAtStart;
        }

        /**
         * The call ended with {@code signal}; returns the limit after it, or -1 when it did not change (an
         * adaptive limit learns from the outcome; a fixed one never changes).
         */
        int release(AdaptiveLimit.Signal signal) {
            lock.lock();
            try {
                if (released) {
                    return -1;
                }
                released = true;
                int before = limit();
                if (adaptive != null) {
                    adaptive.sample(signal, startNanos, clock.getAsLong(), inFlightAtStart, held);
                }
                held--;
                owner.held--;
                forget(owner);
                if (signal == AdaptiveLimit.Signal.OVERLOADED) {
                    overloaded++;
                }
                grant();
                int after = limit();
                return after == before ? -1 : after;
            } finally {
                lock.unlock();
            }
        }
    }

    /** One owner's slots and waiting calls. */
    private static final class Owner {
        final Object key;
        int held;
        final ArrayDeque<Waiter> waiting = new ArrayDeque<>();

        Owner(Object key) {
            this.key = key;
        }
    }

    private static final class Waiter {
        final long order;
        final Condition turn;
        boolean granted;

        Waiter(long order, Condition turn) {
            this.order = order;
            this.turn = turn;
        }
    }

    private final String name;
    private final int fixed;
    private final AdaptiveLimit adaptive;
    private final LongSupplier clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<Object, Owner> owners = new HashMap<>();
    private int held;
    private int waiting;
    private long arrivals;
    private long overloaded;
    private long waits;

    /** A limiter of {@code fixed} slots. */
    static ToolLimiter fixed(String name, int fixed, LongSupplier clock) {
        return new ToolLimiter(name, fixed, null, clock);
    }

    /** A limiter whose slots {@code adaptive} decides. */
    static ToolLimiter adaptive(String name, AdaptiveLimit adaptive, LongSupplier clock) {
        return new ToolLimiter(name, 0, adaptive, clock);
    }

    private ToolLimiter(String name, int fixed, AdaptiveLimit adaptive, LongSupplier clock) {
        this.name = name;
        this.fixed = fixed;
        this.adaptive = adaptive;
        this.clock = clock;
    }

    /** The tool (or provider) whose calls it limits. */
    String name() {
        return name;
    }

    /** How many calls may be in flight now. */
    int limit() {
        lock.lock();
        try {
            return adaptive == null ? fixed : adaptive.limit();
        } finally {
            lock.unlock();
        }
    }

    /** Why the limit last changed ({@code overloaded}, {@code timeout}, {@code latency}, {@code growth}), or {@code fixed}. */
    String cause() {
        lock.lock();
        try {
            return adaptive == null ? "fixed" : adaptive.cause();
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot: limit, in flight, waiting, calls the tool refused for load, calls that waited. */
    long[] state() {
        lock.lock();
        try {
            return new long[] {adaptive == null ? fixed : adaptive.limit(), held, waiting, overloaded, waits};
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a slot for a call of {@code ownerKey} (a run tree; any object whose identity names it).
     *
     * @throws InterruptedException when the thread is interrupted while it waits (it holds no slot then)
     */
    Permit acquire(Object ownerKey) throws InterruptedException {
        long asked = clock.getAsLong();
        lock.lock();
        try {
            Owner owner = owners.computeIfAbsent(ownerKey, Owner::new);
            if (waiting == 0 && held < limitLocked()) {
                return take(owner, asked);
            }
            Waiter waiter = new Waiter(arrivals++, lock.newCondition());
            owner.waiting.addLast(waiter);
            waiting++;
            waits++;
            grant();
            try {
                while (!waiter.granted) {
                    waiter.turn.await();
                }
            } catch (InterruptedException e) {
                if (waiter.granted) { // granted as it was interrupted: give the slot on
                    held--;
                    owner.held--;
                    grant();
                } else {
                    owner.waiting.remove(waiter);
                    waiting--;
                }
                forget(owner);
                throw e;
            }
            return permit(owner, asked);
        } finally {
            lock.unlock();
        }
    }

    private Permit take(Owner owner, long asked) {
        held++;
        owner.held++;
        return new Permit(owner, asked, 0, held, limitLocked());
    }

    private Permit permit(Owner owner, long asked) {
        long now = clock.getAsLong();
        return new Permit(owner, now, now - asked, held, limitLocked());
    }

    private int limitLocked() {
        return adaptive == null ? fixed : adaptive.limit();
    }

    /** Hands free slots to waiting calls, fairly between owners. */
    private void grant() {
        while (waiting > 0 && held < limitLocked()) {
            Owner next = null;
            for (Owner owner : owners.values()) {
                if (!owner.waiting.isEmpty()
                        && (next == null
                                || owner.held < next.held
                                || (owner.held == next.held
                                        && owner.waiting.peekFirst().order < next.waiting.peekFirst().order))) {
                    next = owner;
                }
            }
            Waiter waiter = next.waiting.pollFirst();
            waiting--;
            held++;
            next.held++;
            waiter.granted = true;
            waiter.turn.signal();
        }
    }

    private void forget(Owner owner) {
        if (owner.held == 0 && owner.waiting.isEmpty()) {
            owners.remove(owner.key);
        }
    }
}
