package dev.planvm.tools.chain;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.ParamsCheck;
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
     * @param limits     per-tool concurrency limits shared by all runs
     */
    public record Parts(ToolRegistry tools, ConditionEvaluator conditions, ParamsCheck paramsCheck, RetryLink retry,
                        ToolLimitLink limits, List<CallListener> listeners) {
        public Parts {
            Objects.requireNonNull(tools, "tools");
            Objects.requireNonNull(paramsCheck, "paramsCheck");
            Objects.requireNonNull(retry, "retry");
            Objects.requireNonNull(limits, "limits");
            listeners = List.copyOf(listeners);
        }
    }

    /**
     * permission → run mode (dry run, replay or record; none for a live run) → retry → per-tool
     * limit → the tool or condition evaluator. Dry run and replay answer every call themselves, so
     * nothing after them runs.
     *
     * @param mode a {@link DryRunLink}, a cassette player or recorder, or {@code null}
     */
    public static CallChain standard(Parts parts, CallInterceptor mode) {
        List<CallInterceptor> links = new ArrayList<>();
        links.add(new PermissionLink());
        if (mode != null) {
            links.add(mode);
        }
        links.add(parts.retry());
        links.add(parts.limits());
        links.add(new TerminalLink(parts.tools(), parts.conditions(), parts.paramsCheck()));
        return new CallChain(links, parts.listeners());
    }
}
