package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.run.CallScheduler;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Supplier;

/**
 * The default {@link CallScheduler}: each early call runs on a thread of the VM's executor (virtual
 * threads on 21+), its tag announced on a queue once its future is complete (never before); time
 * comes from the system clocks.
 */
public final class ThreadScheduler implements CallScheduler {

    private final Supplier<ExecutorService> executor;
    private final BlockingQueue<Integer> done = new LinkedBlockingQueue<>();

    /** @param executor the VM's shared executor, asked for only when a call is started */
    public ThreadScheduler(Supplier<ExecutorService> executor) {
        this.executor = executor;
    }

    @Override
    public Pending start(int tag, Supplier<JsonNode> work) {
        FutureTask<JsonNode> task = new FutureTask<>(work::get) {
            @Override
            protected void done() {
                done.offer(tag);
            }
        };
        executor.get().execute(task);
        return new FuturePending(task);
    }

    @Override
    public int awaitDone() throws InterruptedException {
        return done.take();
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

    private record FuturePending(FutureTask<JsonNode> task) implements Pending {

        @Override
        public boolean isDone() {
            return task.isDone();
        }

        @Override
        public boolean isCancelled() {
            return task.isCancelled();
        }

        @Override
        public JsonNode answer() {
            try {
                return task.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw new CompletionException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CompletionException(e);
            }
        }

        @Override
        public void cancel() {
            task.cancel(true);
        }
    }
}
