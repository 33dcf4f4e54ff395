package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.run.CallScheduler;
import io.temporal.workflow.Async;
import io.temporal.workflow.CancellationScope;
import io.temporal.workflow.Promise;
import io.temporal.workflow.Workflow;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The {@link CallScheduler} of a run inside a workflow: an early call runs in a workflow thread of
 * its own ({@link Async#function}), inside a cancellation scope so that discarding it cancels its
 * activity; the run waits with {@link Workflow#await}; time is the workflow's deterministic clock.
 * Calls complete in the order the workflow's history records, so a replay hands tags out in the
 * same order and the run makes the same decisions.
 */
final class TemporalScheduler implements CallScheduler {

    private final Deque<Integer> done = new ArrayDeque<>();

    @Override
    public Pending start(int tag, Supplier<JsonNode> work) {
        AtomicReference<Promise<JsonNode>> started = new AtomicReference<>();
        CancellationScope scope = Workflow.newCancellationScope(() -> started.set(Async.function(work::get)));
        scope.run();
        Promise<JsonNode> promise = started.get();
        promise.handle((answer, failure) -> {
            done.add(tag);
            return null;
        });
        return new PromisePending(promise, scope);
    }

    @Override
    public int awaitDone() {
        Workflow.await(() -> !done.isEmpty());
        return done.poll();
    }

    @Override
    public int pollDone() {
        Integer tag = done.poll();
        return tag == null ? -1 : tag;
    }

    @Override
    public void forgetDone() {
        done.clear();
    }

    @Override
    public long nanoTime() {
        return Workflow.currentTimeMillis() * 1_000_000L;
    }

    @Override
    public Instant now() {
        return Instant.ofEpochMilli(Workflow.currentTimeMillis());
    }

    /** A call in a workflow thread of its own. */
    private static final class PromisePending implements Pending {
        private final Promise<JsonNode> promise;
        private final CancellationScope scope;
        private boolean cancelled;

        PromisePending(Promise<JsonNode> promise, CancellationScope scope) {
            this.promise = promise;
            this.scope = scope;
        }

        @Override
        public boolean isDone() {
            return promise.isCompleted();
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public JsonNode answer() {
            if (cancelled) {
                throw new CancellationException("the call was cancelled");
            }
            return promise.get();
        }

        @Override
        public void cancel() {
            if (!promise.isCompleted()) {
                cancelled = true;
                scope.cancel("planvm discarded the call: the run left its block");
            }
        }
    }
}
