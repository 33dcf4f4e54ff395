package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.FailedAttempt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * The first link of a session's call chain: answers a call with the answer of the very same call
 * started before a run asked for it (while the plan was still arriving), once; any other call passes
 * on. The early call's failed attempts and tokens are told to the call at its turn, so the step
 * records them as if it had made the call itself. Thread-safe.
 */
public final class EarlyAnswers implements CallInterceptor {

    /** A call started early: its answer to come, and what it reported on the way. */
    public record Early(Call call, Future<JsonNode> answer, List<FailedAttempt> attempts, TokenTally tokens) {}

    private final Map<Call, Deque<Early>> waiting = new HashMap<>();
    private int used;

    /** Holds {@code early} for the first identical call. */
    public synchronized void add(Early early) {
        waiting.computeIfAbsent(early.call(), c -> new ArrayDeque<>()).add(early);
    }

    /** How many calls were answered by an early call. */
    public synchronized int used() {
        return used;
    }

    /** Cancels every early call not used yet; returns how many there were. */
    public int discard() {
        List<Early> unused = new ArrayList<>();
        synchronized (this) {
            waiting.values().forEach(unused::addAll);
            waiting.clear();
        }
        unused.forEach(
                early -> early.answer().cancel(true)); // outside the lock: a cancelled call's hooks may take others
        return unused.size();
    }

    private synchronized Early take(Call call) {
        Deque<Early> calls = waiting.get(call);
        if (calls == null) {
            return null;
        }
        Early early = calls.poll();
        if (calls.isEmpty()) {
            waiting.remove(call);
        }
        if (early != null) {
            used++;
        }
        return early;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        Early early = take(call);
        if (early == null) {
            return chain.proceed(call);
        }
        try {
            JsonNode answer = early.answer().get();
            tell(chain, call, early);
            return answer;
        } catch (CancellationException cancelled) {
            return chain.proceed(call);
        } catch (ExecutionException e) {
            tell(chain, call, early);
            Throwable cause = e.getCause();
            if (cause instanceof ToolException failure) {
                throw failure;
            }
            throw new ToolException(call.describe() + " failed: " + cause, false, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            early.answer().cancel(true);
            throw new ToolException("interrupted while waiting for " + call.describe(), false, e);
        }
    }

    private static void tell(Chain chain, Call call, Early early) {
        List<FailedAttempt> attempts;
        synchronized (early.attempts()) {
            attempts = new ArrayList<>(early.attempts());
        }
        attempts.forEach(chain::attemptFailed);
        early.tokens().replayTo(call.context().events());
    }
}
