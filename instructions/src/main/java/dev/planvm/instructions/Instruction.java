package dev.planvm.instructions;

import java.util.List;

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

    /** The {@code seq_no}s this instruction may jump to (empty for all but {@code jmp}). */
    default List<Integer> jumpTargets() {
        return List.of();
    }

    /** Whether execution may continue with the next instruction in {@code seq_no} order. */
    default boolean mayFallThrough() {
        return true;
    }
}
