package dev.planvm.vm.internal;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a run and every child run of its plan-tool calls share, at any depth (issue 36 item 5): one pool
 * of call slots ({@link CallSlots}, {@code --max-in-flight}) and one count of steps against the root run's
 * step limit ({@code --max-steps}), so neither a deep nor a wide tree of plan tools and maps multiplies
 * them. (They also share one token budget: the session's, which child runs run in.) The root run makes
 * one; the VM hands it to each child run. Thread-safe.
 */
public final class RunTree {

    private final CallSlots slots;
    private final int maxSteps;
    private final AtomicInteger steps = new AtomicInteger();

    /**
     * @param maxInFlight the most calls the tree has in flight beside its runs' own threads
     * @param maxSteps    the most steps all runs of the tree execute together
     */
    public RunTree(int maxInFlight, int maxSteps) {
        this.slots = new CallSlots(maxInFlight);
        this.maxSteps = maxSteps;
    }

    /** The tree's call slots. */
    public CallSlots slots() {
        return slots;
    }

    /** The most steps all runs of the tree execute together. */
    public int maxSteps() {
        return maxSteps;
    }

    /** The steps the runs of the tree executed so far (a resumed run's earlier steps included). */
    public int steps() {
        return steps.get();
    }

    /** Whether the runs of the tree executed every step they may. */
    public boolean stepsSpent() {
        return steps.get() >= maxSteps;
    }

    /**
     * Why a run of the tree stops once {@link #stepsSpent()}: the same sentence whichever run of the tree
     * reached the limit and at which step (concurrent children reach it in any order), so a run and its
     * sequential twin fail alike.
     */
    public String stepLimitMessage() {
        return "the run and the child runs of its plan tools exceeded their shared limit of " + maxSteps
                + " steps (--max-steps); plan tools called in a loop or mapped over a long list are the usual cause";
    }

    /** Counts one step; {@code false}, counting nothing, when the tree has executed all it may. */
    boolean step() {
        while (true) {
            int now = steps.get();
            if (now >= maxSteps) {
                return false;
            }
            if (steps.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Counts the steps a resumed run executed before (they count toward the tree's steps too). */
    void restored(int earlier) {
        steps.addAndGet(earlier);
    }
}
