package dev.planvm.vm.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls one run tree — a run and every child run of its plan-tool calls, at any depth — may have in
 * flight beside the threads its runs already use: one pool of slots ({@code --max-in-flight}), so the
 * threads a tree can use are bounded whatever its shape (issue 36 item 5: six levels of plan tools each
 * mapping over 8 elements made 17,527 threads when every run had a cap of its own).
 *
 * <p><b>Never waited for.</b> A run asks for a slot with {@link Member#tryAcquire()} and, when there is
 * none, makes the call on its own thread instead (a map runs its next element there; a call started ahead
 * of its turn simply waits for its turn). A child run runs on the thread of the call that started it, so it
 * borrows its parent's slot; since nobody ever blocks on the pool, a parent that holds slots while its
 * children want more cannot deadlock the tree, however deep the nesting.
 *
 * <p><b>A fair share.</b> Each run of the tree is a {@link Member}. A member that already holds its fair
 * share ({@code capacity / active members}, at least one) is refused while another member under its share
 * was refused and still wants one: slots that the wide map of one child gives back go to its siblings
 * first, so a wide map cannot starve them. Thread-safe: members acquire from their own threads.
 */
public final class CallSlots {

    private final int capacity;
    private int used;
    private int peak;
    private final List<Member> members = new ArrayList<>();

    /** @param capacity the most calls in flight at once in the tree, at least 1 */
    public CallSlots(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a run tree needs at least one call slot, not " + capacity);
        }
        this.capacity = capacity;
    }

    /** The most calls in flight at once. */
    public int capacity() {
        return capacity;
    }

    /** The slots held now. */
    public synchronized int used() {
        return used;
    }

    /** The most slots held at once so far. */
    public synchronized int peak() {
        return peak;
    }

    /** A new member: one run of the tree. {@link Member#leave()} it when the run ends. */
    public synchronized Member join() {
        Member member = new Member();
        members.add(member);
        return member;
    }

    private synchronized Slot acquire(Member member) {
        if (used >= capacity || (member.held >= share(member) && othersWant(member))) {
            member.wanting = true;
            return null;
        }
        used++;
        peak = Math.max(peak, used);
        member.held++;
        member.wanting = false;
        return new Slot(member);
    }

    private synchronized void release(Member member) {
        used--;
        member.held--;
    }

    /** The fair share: the capacity divided among the members that hold or want slots (and the asking one), at least one. */
    private int share(Member asking) {
        int active = 1;
        for (Member member : members) {
            if (member != asking && (member.held > 0 || member.wanting)) {
                active++;
            }
        }
        return Math.max(1, capacity / active);
    }

    /** Whether a member other than {@code asking} was refused a slot while under its share ({@code share}). */
    private boolean othersWant(Member asking) {
        int share = share(asking);
        for (Member member : members) {
            if (member != asking && member.wanting && member.held < share) {
                return true;
            }
        }
        return false;
    }

    /** One run's share of the pool. */
    public final class Member {
        private int held;
        private boolean wanting;

        private Member() {}

        /**
         * A slot, or {@code null} when the tree has none free, or this run holds its fair share while another
         * run of the tree wants one. Never waits.
         */
        public Slot tryAcquire() {
            return acquire(this);
        }

        /** The most calls in flight at once in the whole tree. */
        public int capacity() {
            return capacity;
        }

        /** This run wants no more slots for now (its map has ended): the others need not leave it room. */
        public void satisfied() {
            synchronized (CallSlots.this) {
                wanting = false;
            }
        }

        /** The run ended: it no longer counts toward the others' shares (its slots are released one by one). */
        public void leave() {
            synchronized (CallSlots.this) {
                members.remove(this);
            }
        }
    }

    /**
     * One call's slot: held from {@link Member#tryAcquire()} until the call's work ends ({@link #release()}),
     * or until it is cancelled before it began ({@link #cancelled()}). Releasing twice releases once.
     */
    public final class Slot {
        private static final int NEW = 0;
        private static final int RUNNING = 1;
        private static final int RELEASED = 2;

        private final Member member;
        private final AtomicInteger state = new AtomicInteger(NEW);

        private Slot(Member member) {
            this.member = member;
        }

        /** The call's work begins; {@code false} when it was cancelled first (the work must not run). */
        public boolean begin() {
            return state.compareAndSet(NEW, RUNNING);
        }

        /** The call's work ended (or it was never started): the slot is free again. */
        public void release() {
            if (state.getAndSet(RELEASED) != RELEASED) {
                CallSlots.this.release(member);
            }
        }

        /** The call was cancelled: the slot is free now if its work never began, else when the work ends. */
        public void cancelled() {
            if (state.compareAndSet(NEW, RELEASED)) {
                CallSlots.this.release(member);
            }
        }
    }
}
