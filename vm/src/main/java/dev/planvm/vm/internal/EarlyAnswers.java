package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.function.Predicate;

/**
 * The first link of a session's call chain: answers a call with the answer of the very same call
 * started before a run asked for it (while the plan was still arriving), once; any other call passes
 * on. The early call's failed attempts and tokens are told to the call at its turn, so the step
 * records them as if it had made the call itself. Thread-safe.
 */
public final class EarlyAnswers implements CallInterceptor {

    private final Map<Call, Deque<EarlyCalls.Started>> waiting = new HashMap<>();
    private final Predicate<String> childRuns;
    private int used;

    /** Answers of any tool's calls. */
    public EarlyAnswers() {
        this(tool -> false);
    }

    /**
     * @param childRuns whether a tool (as a plan names it) is a plan tool whose calls are child runs of the
     *                  run that makes them: such a call is never answered here, whatever was started, so it
     *                  passes on to the run's plan-tool link behind the run's guards, which runs (and stores) its
     *                  child; this link sits in front of the chain, but for these calls it is as if it came after
     */
    public EarlyAnswers(Predicate<String> childRuns) {
        this.childRuns = childRuns;
    }

    /** Holds {@code early} for the first identical call (never one of a plan tool: see {@link #EarlyAnswers(Predicate)}). */
    public void add(EarlyCalls.Started early) {
        if (isChildRun(early.call())) {
            early.cancel(); // outside the lock, as in discard()
            return;
        }
        synchronized (this) {
            waiting.computeIfAbsent(early.call(), c -> new ArrayDeque<>()).add(early);
        }
    }

    private boolean isChildRun(Call call) {
        return call instanceof Call.ToolCall tool && childRuns.test(tool.tool());
    }

    /** How many calls were answered by an early call. */
    public synchronized int used() {
        return used;
    }

    /** Cancels every early call not used yet; returns how many there were. */
    public int discard() {
        List<EarlyCalls.Started> unused = new ArrayList<>();
        synchronized (this) {
            waiting.values().forEach(unused::addAll);
            waiting.clear();
        }
        unused.forEach(EarlyCalls.Started::cancel); // outside the lock: a cancelled call's hooks may take others
        return unused.size();
    }

    private synchronized EarlyCalls.Started take(Call call) {
        Deque<EarlyCalls.Started> calls = waiting.get(call);
        if (calls == null) {
            return null;
        }
        EarlyCalls.Started early = calls.poll();
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
        EarlyCalls.Started early = isChildRun(call) ? null : take(call);
        if (early == null) {
            return chain.proceed(call);
        }
        JsonNode answer;
        try {
            answer = early.answer(); // waits for the call to be done
        } catch (CancellationException cancelled) {
            return chain.proceed(call);
        } catch (CompletionException e) {
            if (e.getCause() instanceof InterruptedException interrupted) {
                early.cancel();
                throw new ToolException("interrupted while waiting for " + call.describe(), false, interrupted);
            }
            early.tellTurn(chain::attemptFailed, call.context().events());
            throw new ToolException(call.describe() + " failed: " + e.getCause(), false, e.getCause());
        } catch (ToolException failure) {
            early.tellTurn(chain::attemptFailed, call.context().events());
            throw failure;
        } catch (RuntimeException failure) {
            early.tellTurn(chain::attemptFailed, call.context().events());
            throw new ToolException(call.describe() + " failed: " + failure, false, failure);
        }
        early.tellTurn(chain::attemptFailed, call.context().events());
        return answer;
    }
}
