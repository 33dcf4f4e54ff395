package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.internal.handlers.OutputBinding;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.RunLimits;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The one owner of calls started ahead of their turn, for a complete plan (the {@link Speculator},
 * one per run) and for a plan still arriving ({@link StreamedStarts}, one per stream): it starts
 * every such call through the {@link CallScheduler} (threads of this process by default, Temporal
 * activities inside a workflow), counts the calls in flight against the cap, keeps each call's
 * failed attempts and tokens for the step that uses its answer, and holds the values forwarded
 * ahead of commit (what an instruction not committed yet will write). Which calls may start is
 * decided by its users, with {@link EarlyStartRule}; each call starts holding a slot its user took from
 * the run tree's pool ({@link CallSlots}), given back when the call's work ends.
 *
 * <p>Not thread-safe itself: the Speculator uses it from the run's thread only, StreamedStarts
 * under its own lock. A started call's outcome is written by whatever runs it.
 */
public final class EarlyCalls {

    /** A call started early: the call, its outcome once it has one, its failed attempts and tokens. */
    public static final class Started {
        private final int seqNo;
        private final String tool;
        private final Call call;
        private final List<FailedAttempt> attempts = Collections.synchronizedList(new ArrayList<>());
        private final TokenTally tokens = new TokenTally();
        private final long startedNanos;
        private volatile CallScheduler.Pending pending;
        private volatile CallSlots.Slot slot;
        private volatile long answeredNanos;
        private volatile JsonNode answer;
        private volatile Throwable failure;

        private Started(int seqNo, String tool, Call call, long startedNanos) {
            this.seqNo = seqNo;
            this.tool = tool;
            this.call = call;
            this.startedNanos = startedNanos;
        }

        /** The instruction that makes the call. */
        public int seqNo() {
            return seqNo;
        }

        /** The tool called, as the plan spells it. */
        public String tool() {
            return tool;
        }

        public Call call() {
            return call;
        }

        /** When the call started ({@link CallScheduler#nanoTime()}). */
        public long startedNanos() {
            return startedNanos;
        }

        /** When the call answered or failed, or 0 while it runs (or when it was cancelled before it ran). */
        public long answeredNanos() {
            return answeredNanos;
        }

        /** Whether the scheduler reports the call done (answered, failed or cancelled). */
        public boolean isDone() {
            return pending.isDone();
        }

        public boolean isCancelled() {
            return pending.isCancelled();
        }

        /** Whether it failed or was cancelled. */
        public boolean failed() {
            return pending.isCancelled() || failure != null;
        }

        /** Whether the call still runs: neither answered, failed nor cancelled. */
        boolean running() {
            return answeredNanos == 0 && !pending.isDone();
        }

        /**
         * The answer, as {@link CallScheduler.Pending#answer()} gives it; between the moment the call
         * answered and the moment the scheduler reports it done, the answer it recorded (a
         * {@link RuntimeException} it threw as such, anything else wrapped in a
         * {@link CompletionException}).
         */
        public JsonNode answer() {
            if (answeredNanos != 0 && !pending.isDone()) {
                if (failure instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (failure != null) {
                    throw new CompletionException(failure);
                }
                return answer;
            }
            return pending.answer();
        }

        /** Asks the call to stop; its answer will not be used. */
        public void cancel() {
            pending.cancel();
            slot.cancelled();
        }

        /**
         * Tells the step that uses this call's answer what the call reported on the way: its failed
         * attempts and its tokens, as if the step had made the call itself.
         */
        public void tellTurn(Consumer<FailedAttempt> failedAttempts, CallEvents events) {
            List<FailedAttempt> copy;
            synchronized (attempts) {
                copy = new ArrayList<>(attempts);
            }
            copy.forEach(failedAttempts);
            tokens.replayTo(events);
        }

        /**
         * What {@code calling} writes from this call's answer, bound by its {@code output_vars} rules
         * and held to the variable limits; throws when it fails (the failure surfaces at its turn).
         */
        public Map<String, JsonNode> outputs(Calling calling, RunLimits limits) {
            Map<String, JsonNode> writes = OutputBinding.values(calling.tool(), calling.outputVars(), answer());
            writes.forEach(limits::checkVariable);
            return writes;
        }
    }

    private final CallChain chain;
    private final CallScheduler scheduler;
    /** The calls started, by seq_no, in the order they started. */
    private final Map<Integer, Started> started = new LinkedHashMap<>();
    /** Writes of instructions not committed yet, known ahead (position → variable → value). */
    private final Map<Integer, Map<String, JsonNode>> forwarded = new HashMap<>();

    /**
     * @param chain     the chain every early call goes through
     * @param scheduler what starts the calls and tells when they are done
     */
    public EarlyCalls(CallChain chain, CallScheduler scheduler) {
        this.chain = chain;
        this.scheduler = scheduler;
    }

    /**
     * Starts {@code call} of the instruction {@code seqNo} through the scheduler, as {@code tag} (the
     * scheduler hands the tag out once it is done), holding {@code slot} until its work ends. {@code answered}
     * runs on the thread that ran the call, once it has answered or failed (and given its slot back) and
     * before the scheduler reports it done.
     */
    public Started start(int seqNo, int tag, String tool, Call call, CallSlots.Slot slot, Runnable answered) {
        Started early = new Started(seqNo, tool, call, scheduler.nanoTime());
        early.slot = slot;
        early.pending = scheduler.start(tag, () -> {
            if (!slot.begin()) {
                throw new java.util.concurrent.CancellationException(
                        call.describe() + " was cancelled before it started");
            }
            try {
                JsonNode answer = chain.execute(call.withEvents(early.tokens), early.attempts::add);
                early.answer = answer;
                return answer;
            } catch (RuntimeException | Error failed) {
                early.failure = failed;
                throw failed;
            } finally {
                early.answeredNanos = Math.max(1, scheduler.nanoTime());
                slot.release();
                answered.run();
            }
        });
        started.put(seqNo, early);
        return early;
    }

    /** How many started calls still run. */
    public int inFlight() {
        int running = 0;
        for (Started early : started.values()) {
            if (early.running()) {
                running++;
            }
        }
        return running;
    }

    /** The call started for the instruction {@code seqNo}, or {@code null}. */
    public Started get(int seqNo) {
        return started.get(seqNo);
    }

    /** Forgets the call of the instruction {@code seqNo} (its turn took it, or it was not the same call). */
    public void remove(int seqNo) {
        started.remove(seqNo);
    }

    /** The calls started and not forgotten, in the order they started. */
    public List<Started> all() {
        return List.copyOf(started.values());
    }

    /** Cancels every call started; they stay listed by {@link #all()}. */
    public void cancelAll() {
        started.values().forEach(Started::cancel);
    }

    /**
     * Cancels and forgets every call started (the run left the block that started them), telling
     * {@code discarded} each one's seq_no, and forgets what the scheduler had not handed out yet.
     */
    public void discardAll(IntConsumer discarded) {
        for (Started early : started.values()) {
            early.cancel();
            discarded.accept(early.seqNo);
        }
        started.clear();
        scheduler.forgetDone();
    }

    /** What the instruction at {@code position} will write, when forwarded, else {@code null}. */
    public Map<String, JsonNode> forwarded(int position) {
        return forwarded.get(position);
    }

    /** Forwards what the instruction at {@code position} will write. */
    public void forward(int position, Map<String, JsonNode> writes) {
        forwarded.put(position, writes);
    }

    /** Forgets what was forwarded from instructions before {@code position} (they have committed). */
    public void forgetForwardedBefore(int position) {
        forwarded.keySet().removeIf(p -> p < position);
    }

    /** Forgets everything forwarded. */
    public void forgetForwarded() {
        forwarded.clear();
    }
}
