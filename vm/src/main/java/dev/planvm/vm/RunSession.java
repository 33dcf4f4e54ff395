package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.TokenBudget;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.CallChains;
import dev.planvm.vm.internal.EarlyAnswers;
import dev.planvm.vm.internal.StreamedStarts;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One way to the outside world shared by several runs and by calls made beside them: what an agent
 * needs to plan, run, and re-plan as one unit. A session has one run mode (a live session, one
 * recording into one cassette, one replaying one cassette in order, a dry run), one call chain and
 * one token budget ({@link PlanVmBuilder#maxTokens}) for everything done in it. Get one with
 * {@link PlanVm#session(RunMode)}; run plans in it with a {@link RunRequest} that names it
 * ({@link RunRequest.Builder#session}). {@code vm.run(plan, inputs, mode)} runs in a session of its own.
 * Thread-safe.
 */
public final class RunSession {

    private final RunMode mode;
    private final TokenBudget budget;
    private final Function<CallChains.RunLinks, CallChain> chains;
    private final CallChain chain;
    private final EarlyAnswers earlyAnswers;
    private final Function<Map<String, JsonNode>, StreamedStarts> starts;

    /**
     * @param chains the session's chain with one run's own links (every chain shares the session's
     *               mode link and budget)
     */
    RunSession(
            RunMode mode,
            TokenBudget budget,
            Function<CallChains.RunLinks, CallChain> chains,
            EarlyAnswers earlyAnswers,
            Function<Map<String, JsonNode>, StreamedStarts> starts) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.budget = budget;
        this.chains = chains;
        this.earlyAnswers = earlyAnswers;
        this.chain = chains.apply(new CallChains.RunLinks(budget, List.of(), List.of()))
                .withFront(earlyAnswers);
        this.starts = starts;
    }

    public RunMode mode() {
        return mode;
    }

    /** The session's token budget, which a child run's session (a plan tool's, recording) shares. */
    TokenBudget budget() {
        return budget;
    }

    /** The tokens the calls of this session spent so far (early calls included, used or not). */
    public TokenCount tokensSpent() {
        return budget.spent();
    }

    /** The session's token budget ({@link TokenBudget#UNLIMITED} unless the VM was built with one). */
    public long maxTokens() {
        return budget.max();
    }

    /**
     * Makes a call through the session's chain (e.g. the agent's planner): permission, the token
     * budget, the mode (recorded, replayed or dry), retries, limits and timeouts apply; the VM's call
     * listeners observe it.
     *
     * @param failedAttempts told of every attempt that failed before the call was answered or given up
     * @throws dev.planvm.tools.ToolException when the call fails
     */
    public JsonNode call(Call call, Consumer<FailedAttempt> failedAttempts) {
        return chain.execute(call, failedAttempts);
    }

    /**
     * Starts calls of a plan that is still arriving, run with {@code inputs}; see {@link EarlyStarts}.
     * Discard what later runs did not use with {@link #discardEarly()}.
     */
    public EarlyStarts startEarly(Map<String, JsonNode> inputs) {
        return new EarlyStarts(starts.apply(inputs));
    }

    /** How many calls of this session's runs were answered by a call started early. */
    public int earlyAnswersUsed() {
        return earlyAnswers.used();
    }

    /** Cancels the calls started early that no run used; returns how many there were. */
    public int discardEarly() {
        return earlyAnswers.discard();
    }

    /** The chain one run of this session uses: the session's, with the run's guards and call listeners. */
    CallChain chain(List<CallInterceptor> guards, List<CallListener> listeners) {
        return chain(guards, List.of(), listeners);
    }

    /** {@link #chain(List, List)} with links right after the mode link ({@link CallChains.RunLinks#afterMode}). */
    CallChain chain(List<CallInterceptor> guards, List<CallInterceptor> afterMode, List<CallListener> listeners) {
        return chain(guards, afterMode, listeners, null);
    }

    /**
     * {@link #chain(List, List, List)} whose calls wait for tool slots as {@code owner} (a run tree: slots go
     * fairly to the trees that wait), or as the session's when {@code null}.
     */
    CallChain chain(
            List<CallInterceptor> guards, List<CallInterceptor> afterMode, List<CallListener> listeners, Object owner) {
        if (guards.isEmpty() && afterMode.isEmpty() && listeners.isEmpty() && owner == null) {
            return chain;
        }
        return chains.apply(new CallChains.RunLinks(budget, guards, afterMode, listeners, owner))
                .withFront(earlyAnswers);
    }
}
