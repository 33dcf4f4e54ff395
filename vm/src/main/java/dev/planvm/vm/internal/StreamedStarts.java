package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Reasoning;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.internal.handlers.AssignHandler;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.RunLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Starts the calls of a plan that is still arriving (an LLM streaming it), as soon as each is
 * complete and its inputs are known — the dataflow rule of the {@link Speculator}, over the part of
 * the plan that has arrived.
 *
 * <p>Only the straight-line start of the plan is considered: instructions in ascending
 * {@code seq_no} order up to the first {@code jmp} or custom instruction, the first call that is not
 * free to start early (a tool with side effects, a tool not installed in a live run, a denied
 * tool: a barrier of {@link EarlyStartRule}, the rule a complete plan's run follows too), or the first
 * instruction that arrives out of order, and at most {@value #MAX_PREFIX} instructions. A call the rule makes
 * only at its turn (a plan-tool call) is not started, but ends nothing: later calls that do not read what it
 * writes still start, as in a run of the complete plan. Over that start, an assign is evaluated ahead (once, when what it reads is known) and
 * a call's answer is bound to its {@code output_vars} ahead, so later calls reading them start too;
 * values are held to the run's limits. Calls start through {@link EarlyCalls} (and so through a
 * {@link CallScheduler}), the owner of the calls started, the values forwarded ahead and the
 * in-flight cap, as for a complete plan. Each call started is handed to
 * {@link EarlyAnswers}, which gives its answer to the very same call of the run (the
 * {@code seq_no}, tool, params and expected keys all equal) and nothing else; so a call started
 * from a plan that later turns out different, or invalid, is never used, only discarded.
 */
public final class StreamedStarts {

    private final Map<String, InstructionHandler<?>> handlers;
    private final EarlyStartRule rule;
    private final RunLimits limits;
    private final EarlyAnswers answers;
    private final CallScheduler scheduler;
    /** The calls started and the values forwarded ahead (by index in {@link #prefix}). */
    private final EarlyCalls calls;
    /** The in-flight cap of this stream's calls (its own pool: they belong to no run yet). */
    private final CallSlots.Member slots;

    private final Map<String, JsonNode> inputs;

    /** The most instructions of the start of a plan considered (a plan may have 10,000; real ones have a few dozen). */
    static final int MAX_PREFIX = 1_000;

    private final List<Entry> prefix = new ArrayList<>();
    /** Variable to the index of the last entry of {@link #prefix} that writes it. */
    private final Map<String, Integer> lastWriter = new HashMap<>();

    private int lastSeqNo = -1;
    private boolean prefixClosed;
    private boolean stopped;

    /** Where an instruction of the start of the plan is. */
    private enum State {
        PENDING,
        LAUNCHED,
        KNOWN,
        FAILED,
        /** A call made only at its turn (a plan-tool call): never started here, and what it writes never known. */
        AT_TURN
    }

    /** One instruction of the start of the plan, and what it writes once known. */
    private static final class Entry {
        final Instruction instruction;
        /** For each variable it reads, the entry that writes it before it (absent: the run's inputs). */
        final Map<String, Integer> writers;

        State state = State.PENDING;

        Entry(Instruction instruction, Map<String, Integer> writers) {
            this.instruction = instruction;
            this.writers = writers;
        }
    }

    /**
     * @param rule          which calls may start early
     * @param chain         the chain early calls go through (the session's, without its listeners)
     * @param scheduler     what starts the calls (a scheduler of this stream's own)
     */
    public StreamedStarts(
            Map<String, InstructionHandler<?>> handlers,
            EarlyStartRule rule,
            RunLimits limits,
            CallChain chain,
            EarlyAnswers answers,
            CallScheduler scheduler,
            int maxInFlight,
            Map<String, JsonNode> inputs) {
        this.handlers = handlers;
        this.rule = rule;
        this.limits = limits;
        this.answers = answers;
        this.scheduler = scheduler;
        this.calls = new EarlyCalls(chain, scheduler);
        this.slots = new CallSlots(maxInFlight).join();
        this.inputs = Map.copyOf(inputs);
    }

    /** The next instruction of the plan, in the order the plan lists them, typed and checked on its own. */
    public synchronized void arrived(Instruction instruction) {
        if (stopped || prefixClosed) {
            return;
        }
        if (instruction.seqNo() <= lastSeqNo
                || prefix.size() >= MAX_PREFIX
                || !(instruction instanceof Assign
                        || instruction instanceof Calling
                        || instruction instanceof Reasoning)) {
            prefixClosed = true; // out of order, a jmp or a custom instruction: what follows is not straight-line
            return;
        }
        EarlyStartRule.Start when =
                instruction instanceof Calling calling ? rule.startOf(calling.tool()) : EarlyStartRule.Start.EARLY;
        if (when == EarlyStartRule.Start.BARRIER) {
            prefixClosed = true; // a call that may not start early: no call after it does either
            return;
        }
        lastSeqNo = instruction.seqNo();
        Map<String, Integer> writers = new HashMap<>();
        for (String read : instruction.reads()) {
            Integer writer = lastWriter.get(read);
            if (writer != null) {
                writers.put(read, writer);
            }
        }
        for (String written : instruction.writes()) {
            lastWriter.put(written, prefix.size());
        }
        Entry entry = new Entry(instruction, writers);
        if (when == EarlyStartRule.Start.AT_TURN) {
            entry.state = State.AT_TURN; // what it writes is not known ahead; later independent calls still start
        }
        prefix.add(entry);
        scan();
    }

    /** No more calls start; those started stay with {@link EarlyAnswers} for the run. */
    public synchronized void finish() {
        stopped = true;
    }

    /** No more calls start, and those started are cancelled (their answers will not be used). */
    public synchronized void discard() {
        stopped = true;
        calls.cancelAll();
    }

    /** The calls started so far, in the order they started. */
    public synchronized List<EarlyCalls.Started> started() {
        return calls.all();
    }

    /**
     * Moves every instruction of the arrived start of the plan on as far as the values known allow,
     * in order: an instruction is evaluated (an assign) or its call started once every instruction
     * writing what it reads is known, so each is evaluated at most once (a call that may not start
     * early never got here: it ended the start of the plan when it arrived).
     */
    private void scan() {
        if (stopped) {
            return;
        }
        while (scheduler.pollDone() >= 0) {
            // answers are taken from the calls themselves (see answeredOne): nothing waits for these tags
        }
        for (int i = 0; i < prefix.size(); i++) {
            Entry entry = prefix.get(i);
            if (entry.state == State.LAUNCHED) {
                settle(entry, i);
            }
            if (entry.state != State.PENDING) {
                continue;
            }
            State inputsState = inputsOf(entry);
            if (inputsState == State.FAILED) {
                entry.state = State.FAILED; // what it reads will never be known ahead: it runs at its turn
                continue;
            }
            if (inputsState != State.KNOWN) {
                continue;
            }
            Variables view = name -> {
                Integer writer = entry.writers.get(name);
                return writer == null
                        ? inputs.get(name)
                        : calls.forwarded(writer).get(name);
            };
            if (entry.instruction instanceof Assign assign) {
                evaluate(entry, i, assign, view);
            } else if (entry.instruction instanceof Calling calling) {
                CallSlots.Slot slot = slots.tryAcquire();
                if (slot != null) {
                    start(entry, calling, view, slot);
                }
            } else {
                calls.forward(i, Map.of());
                entry.state = State.KNOWN; // reasoning writes nothing
            }
        }
    }

    /** KNOWN when every writer of what the entry reads is known, FAILED when one never will be, else PENDING. */
    private State inputsOf(Entry entry) {
        State state = State.KNOWN;
        for (int writer : entry.writers.values()) {
            State writerState = prefix.get(writer).state;
            if (writerState == State.FAILED || writerState == State.AT_TURN) {
                return State.FAILED;
            }
            if (writerState != State.KNOWN) {
                state = State.PENDING;
            }
        }
        return state;
    }

    private void evaluate(Entry entry, int index, Assign assign, Variables view) {
        try {
            Map<String, JsonNode> writes = new LinkedHashMap<>();
            AssignHandler.evaluate(assign, view, limits, (name, value) -> {
                limits.checkVariable(name, value);
                writes.put(name, value);
            });
            calls.forward(index, writes);
            entry.state = State.KNOWN;
        } catch (RuntimeException fails) {
            entry.state = State.FAILED; // it fails at its turn, as it would in any run
        }
    }

    private void start(Entry entry, Calling calling, Variables view, CallSlots.Slot slot) {
        boolean launched = false;
        try {
            Optional<Call> call = callFor(calling, view);
            if (call.isEmpty()) {
                entry.state = State.FAILED;
                return;
            }
            EarlyCalls.Started started =
                    calls.start(calling.seqNo(), calling.seqNo(), calling.tool(), call.get(), slot, this::answeredOne);
            launched = true;
            answers.add(started);
            entry.state = State.LAUNCHED;
        } catch (RuntimeException fails) {
            entry.state = State.FAILED; // it fails at its turn, as it would in any run
        } finally {
            if (!launched) {
                slot.release();
            }
        }
    }

    /** A launched call that has answered becomes known (its output bound to its output_vars), or failed. */
    private void settle(Entry entry, int index) {
        EarlyCalls.Started started = calls.get(entry.instruction.seqNo());
        if (started == null || started.answeredNanos() == 0 && !started.isDone()) {
            return;
        }
        if (started.isCancelled()) {
            entry.state = State.FAILED;
            return;
        }
        try {
            calls.forward(index, started.outputs((Calling) entry.instruction, limits));
            entry.state = State.KNOWN;
        } catch (RuntimeException failed) {
            entry.state = State.FAILED; // the failure surfaces at its turn
        }
    }

    @SuppressWarnings("unchecked")
    private Optional<Call> callFor(Calling calling, Variables view) {
        InstructionHandler<Instruction> handler = (InstructionHandler<Instruction>) handlers.get(calling.type());
        return handler == null ? Optional.empty() : handler.callFor(calling, view, limits);
    }

    private synchronized void answeredOne() {
        scan();
    }
}
