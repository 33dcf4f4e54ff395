package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.run.CallScheduler;
import dev.planvm.vm.run.StepContext.Settled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.ObjIntConsumer;

/**
 * The calls of one {@code for_each} step, made through the run's {@link CallScheduler} (threads of
 * this process, or Temporal activities inside a workflow), and collected in their order once all have
 * settled. An element starts beside the run only with a slot of the run tree's pool ({@link CallSlots}:
 * the run, its early calls, its plan-tool children and their maps share it); when the tree has no slot
 * for this run and none of its elements is in flight, the next element runs on the run's own thread, so a
 * map always progresses and nested maps never wait for each other's slots. Each element that answers is
 * told to {@code answered} at once, on the run's thread (a durable run commits it there, so a resume makes
 * only the calls that did not answer; the run counts it toward its memory budget): when that throws, the
 * map stops — no element starts any more, those in flight are cancelled — and every element not settled
 * fails with what it threw (issue 36 item 7: answers count toward the run's limits as they arrive, not
 * once all have). Each call goes through the run's call chain on its own, so per-tool concurrency limits,
 * the trace, spans and a cassette see one call per element.
 *
 * <p>Used on the run's thread only. Its calls share the run's scheduler with the {@link Speculator}'s, each
 * tagged as {@link CallTags} says.
 */
final class EachCalls {

    private EachCalls() {}

    /**
     * Makes {@code calls}, each beside the run while the tree gives this run a slot, else on the run's own
     * thread; one call, a tree of one slot, or no slots at all (a sequential run) run on the run's own thread,
     * as a sequential step's call does.
     *
     * @param slots    this run's share of the tree's call slots, or {@code null} to make the calls one by one
     * @param answered told each call that answered, with its position in {@code calls}, as it settles; what
     *                 it throws stops the map and fails every element not settled yet
     */
    static List<Settled> run(
            CallScheduler scheduler,
            CallChain chain,
            CallSlots.Member slots,
            List<Call> calls,
            Consumer<FailedAttempt> attempts,
            ObjIntConsumer<JsonNode> answered) {
        int n = calls.size();
        boolean alone = slots == null || n == 1 || slots.capacity() == 1; // nothing to overlap with
        Settled[] settled = new Settled[n];
        CallScheduler.Pending[] started = new CallScheduler.Pending[n];
        CallSlots.Slot[] held = new CallSlots.Slot[n];
        int next = 0;
        int running = 0;
        RuntimeException stop = null;
        try {
            while (stop == null && (next < n || running > 0)) {
                while (stop == null && next < n) {
                    // never more of ours outstanding than the tree has slots (a call gives its slot back a moment
                    // before it is seen done)
                    CallSlots.Slot slot = alone || running >= slots.capacity() ? null : slots.tryAcquire();
                    if (slot != null) {
                        held[next] = slot;
                        started[next] =
                                start(scheduler, chain, calls.get(next), attempts, slot, CallTags.ofElement(next));
                        running++;
                    } else if (running == 0) { // no slot, nothing of ours in flight: this thread makes it
                        settled[next] = here(chain, calls.get(next), attempts);
                        stop = tell(answered, settled[next], next);
                    } else {
                        break;
                    }
                    next++;
                }
                boolean progressed = false;
                for (int i = 0; i < next && stop == null; i++) {
                    if (settled[i] == null && started[i] != null && started[i].isDone()) {
                        settled[i] = settle(calls.get(i), started[i]);
                        running--;
                        progressed = true;
                        stop = tell(answered, settled[i], i);
                    }
                }
                if (stop == null && !progressed && running > 0) {
                    scheduler.awaitDone();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            for (int i = 0; i < n; i++) {
                if (settled[i] == null) {
                    cancel(started[i], held[i]);
                    settled[i] = Settled.failed(new ToolException(
                            "interrupted while waiting for " + calls.get(i).describe(), false, e));
                }
            }
        } finally {
            if (slots != null) {
                slots.satisfied();
            }
        }
        if (stop != null) {
            for (int i = 0; i < n; i++) {
                if (settled[i] == null || settled[i].ok()) { // an answer held past the stop is dropped
                    cancel(started[i], held[i]);
                    settled[i] = Settled.failed(stop);
                }
            }
        }
        return new ArrayList<>(Arrays.asList(settled));
    }

    /** Starts one element beside the run, holding {@code slot} while its work runs. */
    private static CallScheduler.Pending start(
            CallScheduler scheduler,
            CallChain chain,
            Call call,
            Consumer<FailedAttempt> attempts,
            CallSlots.Slot slot,
            int tag) {
        return scheduler.start(tag, () -> {
            if (!slot.begin()) {
                throw new CancellationException(call.describe() + " was cancelled before it started");
            }
            try {
                return chain.execute(call, attempts);
            } finally {
                slot.release();
            }
        });
    }

    /** One element made on this thread. */
    private static Settled here(CallChain chain, Call call, Consumer<FailedAttempt> attempts) {
        try {
            return Settled.answered(chain.execute(call, attempts));
        } catch (RuntimeException e) {
            return Settled.failed(e);
        }
    }

    private static void cancel(CallScheduler.Pending pending, CallSlots.Slot slot) {
        if (pending != null) {
            pending.cancel();
            slot.cancelled();
        }
    }

    /** Tells {@code answered} of an answer; returns what it threw (the map stops), else {@code null}. */
    private static RuntimeException tell(ObjIntConsumer<JsonNode> answered, Settled settled, int position) {
        if (!settled.ok()) {
            return null;
        }
        try {
            answered.accept(settled.answer(), position);
            return null;
        } catch (RuntimeException stop) {
            return stop;
        }
    }

    private static Settled settle(Call call, CallScheduler.Pending pending) {
        try {
            JsonNode answer = pending.answer();
            return Settled.answered(answer);
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof OutOfMemoryError || cause instanceof StackOverflowError) {
                throw (Error) cause; // the run fails as exhausted, as if the call had run on its own thread
            }
            return Settled.failed(new ToolException(call.describe() + " failed: " + cause, false, cause));
        } catch (CancellationException e) {
            return Settled.failed(new ToolException(call.describe() + " was cancelled", false, e));
        } catch (RuntimeException e) {
            return Settled.failed(e);
        }
    }
}
