package dev.planvm.vm.internal;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The early-start rules of a VM's runs, and the dependency facts of the plans they run, cached per plan:
 * which calls are barriers and which are made only at their turn is what {@link EarlyStartRule} decides for
 * the run, and the streamed starts of a session ask the very same rule ({@link #rule}). A replay or a dry run
 * asks which tools have side effects without setting any up (no MCP server starts to answer from a cassette).
 * Thread-safe.
 */
public final class Dataflows {

    private final ToolRegistry tools;
    private final ToolPolicy policy;
    private final ApprovalRules approveTools;
    private final Set<String> childRunTools;
    /** Live runs with the VM's own approval rules. */
    private final Map<Plan, Dataflow> live = Collections.synchronizedMap(new WeakHashMap<>());
    /** Replays and dry runs: they never set a tool up. */
    private final Map<Plan, Dataflow> offline = Collections.synchronizedMap(new WeakHashMap<>());
    /** Live runs without approval barriers (a run with no approval rules when the VM has some). */
    private final Map<Plan, Dataflow> noApproval = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * @param policy        the VM's tool policy
     * @param approveTools  the VM's own approval rules
     * @param childRunTools the canonical names of the VM's plan tools, whose calls start child runs
     */
    public Dataflows(ToolRegistry tools, ToolPolicy policy, ApprovalRules approveTools, Set<String> childRunTools) {
        this.tools = tools;
        this.policy = policy;
        this.approveTools = approveTools;
        this.childRunTools = Set.copyOf(childRunTools);
    }

    /**
     * The rule of a run with these approval rules (ignored when {@code offline}: a replay asks nobody).
     *
     * @param offline whether the run calls nothing real (a replay, a dry run)
     */
    public EarlyStartRule rule(boolean offline, ApprovalRules approvals) {
        return new EarlyStartRule(tools, policy, offline ? ApprovalRules.NONE : approvals, offline, childRunTools);
    }

    /**
     * The plan's dataflow for a run with these approval rules (ignored when {@code offline}).
     *
     * @param offline whether the run calls nothing real (a replay, a dry run)
     */
    public Dataflow of(Plan plan, boolean offline, ApprovalRules approvals) {
        if (offline) {
            return this.offline.computeIfAbsent(plan, p -> Dataflow.of(p, rule(true, approvals)));
        }
        if (approvals.globs().equals(approveTools.globs())) {
            return live.computeIfAbsent(plan, p -> Dataflow.of(p, rule(false, approvals)));
        }
        if (approvals.isEmpty()) {
            return noApproval.computeIfAbsent(plan, p -> Dataflow.of(p, rule(false, approvals)));
        }
        return Dataflow.of(plan, rule(false, approvals));
    }
}
