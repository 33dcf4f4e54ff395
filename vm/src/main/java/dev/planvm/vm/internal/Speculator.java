package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.internal.handlers.AssignHandler;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs calls ahead of their turn inside a basic block, keeping sequential semantics (one per run,
 * used by the run's thread only) — dataflow execution with in-order commit.
 *
 * <p>The interpreter commits instructions in program order; this class only decides which calls
 * (a {@code calling}, or a {@code condition_prompt} jmp) to start early. A call of the current
 * block starts as soon as the values of the variables it reads are known: from the store when no
 * uncommitted instruction of the block before it writes them, otherwise forwarded from that
 * writer — a call that has answered (its output bound by the {@code output_vars} rules) or an
 * assign whose own inputs are known (evaluated ahead). While the run's thread waits for the call
 * at its turn, every other answer wakes it to start whatever became ready. At its turn a handler
 * computes its call again and uses the early answer only if it is the very same call (otherwise
 * it calls directly and the run's trace counts a mismatch). Side-effecting calls never start
 * early, and no call after one starts before it has committed. Leaving the block (a jump, the
 * end, a failure) discards what is still running.
 *
 * <p>The call started early is computed by the instruction's own handler
 * ({@link InstructionHandler#callFor}), over the variables as the instruction will see them and
 * within the run's {@link RunLimits}: the same computation the handler makes at its turn. Values
 * forwarded ahead of commit are held to the same limits as the variables they will become.
 *
 * <p>Early calls are started by {@link EarlyCalls} (which also holds the values forwarded ahead) and
 * waited for through the run's {@link CallScheduler}: threads of this process by default, Temporal
 * activities and promises inside a workflow. Each holds a slot of the run tree's pool ({@link CallSlots}):
 * with none free, a call is simply made at its turn.
 */
public final class Speculator {

    private final Plan plan;
    private final Dataflow flow;
    private final Map<String, InstructionHandler<?>> handlers;
    private final RunLimits limits;
    private final CallChain chain;
    private final CallScheduler scheduler;
    /** The calls started early and the values forwarded ahead of commit. */
    private final EarlyCalls calls;
    /** This run's share of the run tree's call slots. */
    private final CallSlots.Member slots;
    /** Told the seq_no of each call started early whose turn never came (the run left the block first). */
    private final IntConsumer discardedEarly;

    private VariableStore variables;
    private int pc = -1;
    private int blockStart = -1;
    private int readinessCursor;
    /** Calls not started yet that are worth checking now, by position. */
    private final TreeSet<Integer> unchecked = new TreeSet<>();
    /** Calls not started yet, by the position whose value they wait for (rechecked when it commits or answers). */
    private final TreeMap<Integer, List<Integer>> blockedBy = new TreeMap<>();

    private int started;
    private int used;
    private int mismatched;

    public Speculator(
            Plan plan,
            Dataflow flow,
            Map<String, InstructionHandler<?>> handlers,
            RunLimits limits,
            CallChain chain,
            CallScheduler scheduler,
            CallSlots.Member slots,
            IntConsumer discardedEarly) {
        this.plan = plan;
        this.flow = flow;
        this.handlers = handlers;
        this.limits = limits;
        this.chain = chain;
        this.scheduler = scheduler;
        this.calls = new EarlyCalls(chain, scheduler);
        this.slots = slots;
        this.discardedEarly = discardedEarly;
    }

    /** Before the step at {@code position}: enter its block if needed and start every call that is ready. */
    void beforeStep(int position, VariableStore store) {
        variables = store;
        if (position <= pc || flow.blockStart[position] != blockStart) {
            enterBlock(flow.blockStart[position]);
        }
        pc = position;
        calls.forgetForwardedBefore(position);
        Map<Integer, List<Integer>> committed = blockedBy.headMap(position);
        committed.values().forEach(unchecked::addAll);
        committed.clear();
        startReady();
    }

    /**
     * The answer to the call of the instruction at its turn. Uses the early answer when the very
     * same call was started early; otherwise calls now — on this thread when nothing else is in
     * flight (or the tree has no slot for it), else through the scheduler so answers of other calls keep
     * starting ready ones meanwhile.
     */
    JsonNode atTurn(int seqNo, Call call, Consumer<FailedAttempt> failedAttempts) {
        EarlyCalls.Started early = calls.get(seqNo);
        if (early != null && !early.call().equals(call)) {
            mismatched++;
            early.cancel();
            calls.remove(seqNo);
            early = null;
        }
        if (early != null) {
            used++;
        } else {
            CallSlots.Slot slot = calls.inFlight() == 0 ? null : slots.tryAcquire();
            if (slot == null) {
                return chain.execute(call, failedAttempts);
            }
            early = calls.start(seqNo, pc, toolOf(plan.instructions().get(pc)), call, slot, () -> {});
        }
        try {
            return await(early); // while it waits, later calls may start from this call's answer too
        } finally {
            calls.remove(seqNo);
            early.tellTurn(failedAttempts, call.context().events());
        }
    }

    RunResult.EarlyCalls stats() {
        return new RunResult.EarlyCalls(started, used, mismatched);
    }

    /** Discards everything still running (the run ended or failed). */
    void close() {
        discard();
    }

    private JsonNode await(EarlyCalls.Started call) {
        try {
            while (!call.isDone()) {
                unblock(scheduler.awaitDone());
                startReady();
            }
            // answers that came in meanwhile may make calls ready: start them before this step commits
            for (int done = scheduler.pollDone(); done >= 0; done = scheduler.pollDone()) {
                unblock(done);
            }
            startReady();
            return call.answer();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof OutOfMemoryError || cause instanceof StackOverflowError) {
                throw (Error) cause; // the run fails as exhausted, as if the call had run on its own thread
            }
            throw new ToolException(call.call().describe() + " failed: " + cause, false, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException(
                    "interrupted while waiting for " + call.call().describe(), false, e);
        } catch (CancellationException e) {
            throw new ToolException(call.call().describe() + " was cancelled", false, e);
        }
    }

    /**
     * The calls that waited for the instruction whose call is done (as {@code tag}) are worth checking again; a
     * tag of a map's element ({@link CallTags}) is none of this speculator's.
     */
    private void unblock(int tag) {
        if (!CallTags.isPosition(tag)) {
            return;
        }
        List<Integer> unblocked = blockedBy.remove(tag);
        if (unblocked != null) {
            unchecked.addAll(unblocked);
        }
    }

    private void enterBlock(int start) {
        discard();
        blockStart = start;
        readinessCursor = 0;
        unchecked.clear();
        blockedBy.clear();
        calls.forgetForwarded();
    }

    private void discard() {
        calls.discardAll(discardedEarly);
    }

    /** Starts, in position order, every unchecked call after {@code pc} whose inputs are known. */
    private void startReady() {
        int[] ordered = flow.callsByReadiness.get(blockStart);
        while (readinessCursor < ordered.length && flow.lastSideEffect[ordered[readinessCursor]] < pc) {
            unchecked.add(ordered[readinessCursor++]);
        }
        while (!unchecked.isEmpty()) {
            int position = unchecked.pollFirst();
            if (position <= pc) {
                continue; // its turn is now or past: it is called at its turn
            }
            try {
                Instruction instruction = plan.instructions().get(position);
                Optional<Call> call = callFor(instruction, viewAt(position));
                if (call.isPresent()) {
                    CallSlots.Slot slot = slots.tryAcquire();
                    if (slot == null) {
                        unchecked.add(position); // checked again once a slot may be free
                        return;
                    }
                    started++;
                    calls.start(
                            instruction.seqNo(),
                            CallTags.ofPosition(position),
                            toolOf(instruction),
                            call.get(),
                            slot,
                            () -> {});
                }
            } catch (NotKnownYet notYet) {
                blockedBy
                        .computeIfAbsent(notYet.position, p -> new ArrayList<>())
                        .add(position);
            } catch (RuntimeException fails) {
                // it fails at its turn, exactly as in a sequential run
            }
        }
    }

    @SuppressWarnings("unchecked")
    private Optional<Call> callFor(Instruction instruction, Variables view) {
        InstructionHandler<Instruction> handler = (InstructionHandler<Instruction>) handlers.get(instruction.type());
        return handler == null ? Optional.empty() : handler.callFor(instruction, view, limits);
    }

    /** The tool an instruction calls (a {@code condition_prompt} jmp: its type). */
    private static String toolOf(Instruction instruction) {
        return instruction instanceof Calling calling ? calling.tool() : instruction.type();
    }

    /** The variables as the instruction at {@code position} will see them, where known. */
    private Variables viewAt(int position) {
        Map<String, Integer> writers = flow.writerOf.get(position);
        return Variables.over(variables, name -> {
            Integer writer = writers.get(name);
            if (writer == null || writer < pc) {
                return variables.get(name);
            }
            JsonNode value = writesOf(writer).get(name);
            if (value == null) {
                throw new NotKnownYet(writer);
            }
            return value;
        });
    }

    /** What the uncommitted instruction at {@code position} will write, or {@link NotKnownYet}. */
    private Map<String, JsonNode> writesOf(int position) {
        Map<String, JsonNode> known = calls.forwarded(position);
        if (known != null) {
            return known;
        }
        Instruction instruction = plan.instructions().get(position);
        Map<String, JsonNode> writes;
        if (instruction instanceof Assign assign) {
            writes = evaluateAhead(assign, position);
        } else if (instruction instanceof Calling calling) {
            EarlyCalls.Started early = calls.get(calling.seqNo());
            if (early == null || !early.isDone() || early.isCancelled()) {
                throw new NotKnownYet(position);
            }
            try {
                writes = early.outputs(calling, limits);
            } catch (RuntimeException failed) {
                throw new NotKnownYet(position); // the failure surfaces at its turn
            }
        } else {
            throw new NotKnownYet(position);
        }
        calls.forward(position, writes);
        return writes;
    }

    /** An assign evaluated ahead, as its handler evaluates it, each value held to the variable limits. */
    private Map<String, JsonNode> evaluateAhead(Assign assign, int position) {
        Map<String, JsonNode> writes = new LinkedHashMap<>();
        try {
            AssignHandler.evaluate(assign, viewAt(position), limits, (name, value) -> {
                limits.checkVariable(name, value);
                writes.put(name, value);
            });
        } catch (NotKnownYet notYet) {
            throw notYet;
        } catch (RuntimeException fails) {
            throw new NotKnownYet(position); // it fails at its turn
        }
        return writes;
    }

    /** A value needed ahead is not known yet: it waits for the instruction at {@link #position}. */
    private static final class NotKnownYet extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final int position;

        NotKnownYet(int position) {
            super(null, null, false, false);
            this.position = position;
        }
    }
}
