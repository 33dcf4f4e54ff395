package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.RetrySettings;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds how long one attempt of a call may take ({@link RetrySettings#timeoutFor}: one precedence for
 * every kind of tool), and tells the tool ({@link dev.planvm.tools.CallContext#timeout()}, so that it
 * bounds its own I/O by the same limit): the attempt runs on another thread, and when it has not answered in time (and a little
 * {@link #grace}) it is interrupted and fails with a
 * <em>retriable</em> {@link ToolException} "the call timed out after 30 s", which the
 * {@link RetryLink} before this link retries like any other. It sits after the per-tool limit, so
 * waiting for a free slot of a tool does not count. A call without a timeout passes straight on,
 * on its own thread (no cost). Shared by all runs of a VM; its daemon threads end when idle.
 *
 * <p>A tool that ignores interruption keeps running in the background after its timeout; its
 * answer is dropped.
 */
public final class TimeoutLink implements CallInterceptor {

    private final RetrySettings settings;
    private volatile ExecutorService executor;

    private final ToolRegistry tools;

    /** @param tools where a tool's own timeout is looked up ({@link RetrySettings#timeoutFor(Call, ToolRegistry)}) */
    public TimeoutLink(RetrySettings settings, ToolRegistry tools) {
        this.settings = settings;
        this.tools = tools;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        Duration timeout = settings.timeoutFor(call, tools);
        if (timeout == null) {
            return chain.proceed(call);
        }
        Call timed = call.withContext(call.context().withTimeout(timeout));
        FutureTask<JsonNode> attempt = new FutureTask<>(() -> chain.proceed(timed));
        // the attempt runs on another thread: it keeps the caller's context (the call's span, which
        // HTTP tools send on as traceparent)
        executor().execute(io.opentelemetry.context.Context.current().wrap(attempt));
        try {
            return attempt.get(timeout.plus(grace(timeout)).toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            if (attempt.cancel(true)) {
                throw ToolException.timeout("the call timed out after " + RetryLink.seconds(timeout));
            }
            return answer(attempt, call); // it answered just in time
        } catch (ExecutionException failed) {
            throw unwrap(failed, call);
        } catch (InterruptedException e) {
            attempt.cancel(true);
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for " + call.describe(), false, e);
        }
    }

    /**
     * How long past its timeout an attempt is waited for before it is interrupted: a tenth of the
     * timeout, between 50 ms and 1 s. A tool that bounds its own I/O by the timeout it was told
     * (an HTTP, MCP or LLM tool) fails first, with its own, more telling message.
     */
    static Duration grace(Duration timeout) {
        Duration tenth = timeout.dividedBy(10);
        Duration min = Duration.ofMillis(50);
        Duration max = Duration.ofSeconds(1);
        return tenth.compareTo(min) < 0 ? min : tenth.compareTo(max) > 0 ? max : tenth;
    }

    private static JsonNode answer(FutureTask<JsonNode> attempt, Call call) {
        try {
            return attempt.get();
        } catch (ExecutionException failed) {
            throw unwrap(failed, call);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("interrupted while waiting for " + call.describe(), false, e);
        }
    }

    private static RuntimeException unwrap(ExecutionException failed, Call call) {
        Throwable cause = failed.getCause();
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof OutOfMemoryError || cause instanceof StackOverflowError) {
            throw (Error) cause; // the run fails as exhausted, as if the call had run on its own thread
        }
        return new ToolException(call.describe() + " failed unexpectedly: " + cause, false, cause);
    }

    private ExecutorService executor() {
        ExecutorService current = executor;
        if (current == null) {
            synchronized (this) {
                current = executor;
                if (current == null) {
                    AtomicInteger count = new AtomicInteger();
                    current = Executors.newCachedThreadPool(task -> {
                        Thread thread = new Thread(task, "planvm-timed-call-" + count.incrementAndGet());
                        thread.setDaemon(true);
                        return thread;
                    });
                    executor = current;
                }
            }
        }
        return current;
    }
}
