package dev.planvm.instructions;

import java.util.List;
import java.util.Set;

/**
 * One instruction of a plan, typed once at load time. There is one record per instruction type;
 * a handler in the VM is looked up by {@link #type()}.
 */
public sealed interface Instruction permits Assign, Jmp, Calling, Reasoning, Custom {

    Header header();

    default int seqNo() {
        return header().seqNo();
    }

    default String type() {
        return header().type();
    }

    /** The {@code seq_no}s this instruction may jump to ({@code jmp} targets, a {@code calling}'s {@code on_error.jump}). */
    default List<Integer> jumpTargets() {
        return List.of();
    }

    /** Whether execution may continue with the next instruction in {@code seq_no} order. */
    default boolean mayFallThrough() {
        return true;
    }

    /**
     * Whether the instruction reaches the outside world through the call chain: a {@code calling},
     * or a {@code jmp} with a {@code condition_prompt}. (A custom instruction's handler may call out
     * too; that is not known statically.)
     */
    default boolean callsOut() {
        return false;
    }

    /**
     * The variables the instruction may set, in order (assign keys, output_vars names, and
     * {@code last_error} for a {@code calling} with {@code on_error}).
     */
    default List<String> writes() {
        return List.of();
    }

    /** The variables its {@code ${...}} references read (never those of {@code reasoning} text). */
    default Set<String> reads() {
        return Set.of();
    }
}
