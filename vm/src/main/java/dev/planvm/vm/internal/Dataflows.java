package dev.planvm.vm.internal;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Predicate;

/**
 * The dependency facts of the plans a VM runs, cached per plan: calls of tools with side effects, and
 * of tools that need approval, are barriers. A replay or a dry run asks which tools have side effects
 * without setting any up (no MCP server starts to answer from a cassette). Thread-safe.
 */
public final class Dataflows {

    private final ToolRegistry tools;
    private final ToolPolicy policy;
    private final ApprovalRules approveTools;
    /** Live runs with the VM's own approval rules. */
    private final Map<Plan, Dataflow> live = Collections.synchronizedMap(new WeakHashMap<>());
    /** Replays and dry runs: they never set a tool up. */
    private final Map<Plan, Dataflow> offline = Collections.synchronizedMap(new WeakHashMap<>());
    /** Live runs without approval barriers (a run with no approval rules when the VM has some). */
    private final Map<Plan, Dataflow> noApproval = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * @param policy       the VM's tool policy
     * @param approveTools the VM's own approval rules
     */
    public Dataflows(ToolRegistry tools, ToolPolicy policy, ApprovalRules approveTools) {
        this.tools = tools;
        this.policy = policy;
        this.approveTools = approveTools;
    }

    /**
     * The plan's dataflow for a run with these approval rules.
     *
     * @param offline whether the run calls nothing real (a replay, a dry run)
     */
    public Dataflow of(Plan plan, boolean offline, ApprovalRules approvals) {
        if (offline) {
            return this.offline.computeIfAbsent(plan, p -> Dataflow.of(p, barriers(ApprovalRules.NONE, true)));
        }
        if (approvals.globs().equals(approveTools.globs())) {
            return live.computeIfAbsent(plan, p -> Dataflow.of(p, barriers(approvals, false)));
        }
        if (approvals.isEmpty()) {
            return noApproval.computeIfAbsent(plan, p -> Dataflow.of(p, barriers(approvals, false)));
        }
        return Dataflow.of(plan, barriers(approvals, false));
    }

    /** Calls that are barriers: those {@link EarlyStartRule} does not let start early. */
    private Predicate<String> barriers(ApprovalRules approvals, boolean offline) {
        EarlyStartRule rule = new EarlyStartRule(tools, policy, approvals, offline);
        return name -> !rule.mayStartEarly(name);
    }
}
