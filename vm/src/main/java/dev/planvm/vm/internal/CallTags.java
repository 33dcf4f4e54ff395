package dev.planvm.vm.internal;

import dev.planvm.vm.run.CallScheduler;

/**
 * The tags a run starts its calls with on its one {@link CallScheduler}, which hands each tag back once
 * its call is done: the {@link Speculator} tags an early call with its position in the plan, and a
 * {@code for_each} step ({@link EachCalls}) tags its elements from {@link #FIRST_ELEMENT} up, above every
 * position (no plan has that many instructions). So neither mistakes the other's tag for one of its own:
 * the speculator ignores an element's tag, and a map that takes a speculator's tag off the scheduler only
 * delays a recheck the speculator makes anyway at its next step.
 */
final class CallTags {

    /** The tag of a map's first element; every position of a plan is below it. */
    static final int FIRST_ELEMENT = 1 << 30;

    private CallTags() {}

    /** The tag of the call started early for the instruction at {@code position}. */
    static int ofPosition(int position) {
        if (position < 0 || position >= FIRST_ELEMENT) {
            throw new IllegalArgumentException("no plan has an instruction at position " + position);
        }
        return position;
    }

    /** The tag of the call of a map's element {@code index}. */
    static int ofElement(int index) {
        return FIRST_ELEMENT + index;
    }

    /** Whether {@code tag} is one of {@link #ofPosition}, not of a map's element. */
    static boolean isPosition(int tag) {
        return tag >= 0 && tag < FIRST_ELEMENT;
    }
}
