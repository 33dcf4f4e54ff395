package dev.planvm.vm;

import dev.planvm.instructions.Instruction;
import dev.planvm.vm.internal.StreamedStarts;
import java.util.List;

/**
 * Starts the calls of a plan while it is still arriving (an LLM streaming it), for a later run of
 * the same {@link RunSession}: tell it each instruction as soon as it is complete and checked
 * ({@link #arrived}); every call whose inputs are known and whose tool is free to start early
 * (read-only, allowed) starts at once, through the session's call chain (so it is recorded,
 * replayed, retried and counted against the token budget) and a {@link dev.planvm.vm.run.CallScheduler}
 * of its own (the VM's, as for the calls a run starts early). When the plan is complete and valid,
 * {@link #finish()} and run it in the session: each instruction whose call is the very same as one
 * started here gets that call's answer. When it is not, {@link #discard()} cancels them; nothing of
 * theirs is used. Which calls may start is decided over the straight-line start of the plan only
 * (up to the first {@code jmp}, custom instruction, call not free to start early, or instruction out
 * of {@code seq_no} order). Thread-safe.
 */
public final class EarlyStarts {

    /**
     * A call started early.
     *
     * @param seqNo         the instruction that makes it
     * @param tool          the tool called
     * @param startedNanos  when it started ({@link System#nanoTime()})
     * @param answeredNanos when it answered or failed, or 0 while it runs
     * @param failed        whether it failed or was cancelled
     */
    public record EarlyCall(int seqNo, String tool, long startedNanos, long answeredNanos, boolean failed) {}

    private final StreamedStarts starts;

    EarlyStarts(StreamedStarts starts) {
        this.starts = starts;
    }

    /** The next instruction of the plan, in the order the plan lists them, typed and checked on its own. */
    public void arrived(Instruction instruction) {
        starts.arrived(instruction);
    }

    /** The plan is complete: no more calls start; those started wait for the run. */
    public void finish() {
        starts.finish();
    }

    /** The plan will not run as it arrived: no more calls start, and those started are cancelled. */
    public void discard() {
        starts.discard();
    }

    /** The calls started, in the order they started. */
    public List<EarlyCall> calls() {
        return starts.started().stream()
                .map(c -> new EarlyCall(c.seqNo(), c.tool(), c.startedNanos(), c.answeredNanos(), c.failed()))
                .toList();
    }
}
