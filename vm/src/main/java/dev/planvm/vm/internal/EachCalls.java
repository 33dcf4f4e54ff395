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
import java.util.function.IntSupplier;
import java.util.function.ObjIntConsumer;

/**
 * The calls of one {@code for_each} step, made through the run's {@link CallScheduler} (threads of
 * this process, or Temporal activities inside a workflow), and collected in their order once all have
 * settled. The elements share the run's in-flight cap with the calls the run started ahead of their
 * turn: an element starts only while fewer than {@code cap} calls run in all, its own and the others.
 * Each element that answers is told to {@code answered} at once, on the run's thread (a durable run
 * commits it there, so a resume makes only the calls that did not answer). Each call goes through the run's call chain on
 * its own, so per-tool concurrency limits, the trace, spans and a cassette see one call per element.
 *
 * <p>Used on the run's thread only. The tags it starts calls with are above every position of a
 * plan, so a tag that reaches the {@link Speculator} later is one it knows nothing of, and a tag
 * of the speculator's own that this class takes from the scheduler only delays a recheck the
 * speculator makes anyway at its next step.
 */
final class EachCalls {

    /** Tags of element calls start here: no plan has this many instructions. */
    static final int FIRST_TAG = 1 << 30;

    private EachCalls() {}

    /**
     * Makes {@code calls}, at most {@code cap} at a time counting the {@code others} the run has in
     * flight; one call (or a cap of one) runs on the run's own thread, as a sequential step's call does.
     *
     * @param others   how many other calls of the run run now (asked again before each start)
     * @param answered told each call that answered, with its position in {@code calls}, as it settles
     */
    static List<Settled> run(
            CallScheduler scheduler,
            CallChain chain,
            int cap,
            IntSupplier others,
            List<Call> calls,
            Consumer<FailedAttempt> attempts,
            ObjIntConsumer<JsonNode> answered) {
        int n = calls.size();
        Settled[] settled = new Settled[n];
        if (cap <= 1 || n <= 1) {
            for (int i = 0; i < n; i++) {
                try {
                    settled[i] = Settled.answered(chain.execute(calls.get(i), attempts));
                } catch (RuntimeException e) {
                    settled[i] = Settled.failed(e);
                }
                tell(answered, settled[i], i);
            }
            return Arrays.asList(settled);
        }
        CallScheduler.Pending[] started = new CallScheduler.Pending[n];
        int next = 0;
        int running = 0;
        int done = 0;
        try {
            while (done < n) {
                while (next < n && running + others.getAsInt() < cap) {
                    Call call = calls.get(next);
                    started[next] = scheduler.start(FIRST_TAG + next, () -> chain.execute(call, attempts));
                    next++;
                    running++;
                }
                boolean progressed = false;
                for (int i = 0; i < next; i++) {
                    if (settled[i] == null && started[i].isDone()) {
                        settled[i] = settle(calls.get(i), started[i]);
                        tell(answered, settled[i], i);
                        done++;
                        running--;
                        progressed = true;
                    }
                }
                if (!progressed) {
                    scheduler.awaitDone();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            for (int i = 0; i < n; i++) {
                if (settled[i] == null) {
                    if (started[i] != null) {
                        started[i].cancel();
                    }
                    settled[i] = Settled.failed(new ToolException(
                            "interrupted while waiting for " + calls.get(i).describe(), false, e));
                }
            }
        }
        return new ArrayList<>(Arrays.asList(settled));
    }

    private static void tell(ObjIntConsumer<JsonNode> answered, Settled settled, int position) {
        if (settled.ok()) {
            answered.accept(settled.answer(), position);
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
