package dev.planvm.tools.chain;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ParamsCheck;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Assembles the standard call chain: the one place its order is written down. */
public final class CallChains {

    private CallChains() {
    }

    /**
     * The parts of a chain that a VM keeps for all its runs.
     *
     * @param conditions may be {@code null} (conditions then fail unless replayed or dry-run)
     * @param policy     which tools may be called
     * @param timeouts   bounds each attempt of a call (a {@link TimeoutLink} over the same settings as {@code retry})
     * @param limits     per-tool concurrency limits shared by all runs
     */
    public record Parts(ToolRegistry tools, ConditionEvaluator conditions, ParamsCheck paramsCheck, ToolPolicy policy,
                        RetryLink retry, TimeoutLink timeouts, ToolLimitLink limits, List<CallListener> listeners) {
        public Parts {
            Objects.requireNonNull(tools, "tools");
            Objects.requireNonNull(paramsCheck, "paramsCheck");
            Objects.requireNonNull(policy, "policy");
            Objects.requireNonNull(retry, "retry");
            Objects.requireNonNull(timeouts, "timeouts");
            Objects.requireNonNull(limits, "limits");
            listeners = List.copyOf(listeners);
        }

        /** Every tool allowed; attempt timeouts as {@code retry}'s settings say. */
        public Parts(ToolRegistry tools, ConditionEvaluator conditions, ParamsCheck paramsCheck, RetryLink retry,
                     ToolLimitLink limits, List<CallListener> listeners) {
            this(tools, conditions, paramsCheck, ToolPolicy.ALLOW_ALL, retry, new TimeoutLink(retry.settings()), limits,
                    listeners);
        }
    }

    /** {@link #standard(Parts, CallInterceptor, List)} without listeners of its own. */
    public static CallChain standard(Parts parts, CallInterceptor mode) {
        return standard(parts, mode, List.of());
    }

    /**
     * permission → run mode (dry run, replay or record; none for a live run) → retry → per-tool
     * limit → attempt timeout → the tool or condition evaluator. Dry run and replay answer every
     * call themselves, so nothing after them runs; a denied tool is denied in every mode.
     *
     * @param mode         a {@link DryRunLink}, a cassette player or recorder, or {@code null}
     * @param runListeners listeners of this chain only, after the parts' listeners (e.g. one run's {@link AttemptLog})
     */
    public static CallChain standard(Parts parts, CallInterceptor mode, List<CallListener> runListeners) {
        List<CallInterceptor> links = new ArrayList<>();
        links.add(new PermissionLink(parts.policy()));
        if (mode != null) {
            links.add(mode);
        }
        links.add(parts.retry());
        links.add(parts.limits());
        if (parts.timeouts().active()) {
            links.add(parts.timeouts());
        }
        links.add(new TerminalLink(parts.tools(), parts.conditions(), parts.paramsCheck()));
        List<CallListener> listeners = parts.listeners();
        if (!runListeners.isEmpty()) {
            listeners = new ArrayList<>(listeners);
            listeners.addAll(runListeners);
        }
        return new CallChain(links, listeners);
    }
}
