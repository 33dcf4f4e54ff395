package dev.planvm.vm.internal;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Predicate;

/**
 * The dependency facts of the plans a VM runs, cached per plan: calls of tools with side effects, and
 * of tools that need approval, are barriers. A replay or a dry run asks which tools have side effects
 * without setting any up (no MCP server starts to answer from a cassette). Plan-tool calls are made only at
 * their turn: a child run started early and then discarded would spend steps of its run tree's shared
 * budget that a sequential run never spends, and in a stored run leave a stored child run that looks real.
 * Thread-safe.
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
    /** Runs whose plans call plan tools, live with the VM's own approval rules. */
    private final Map<Plan, Dataflow> storedLive = Collections.synchronizedMap(new WeakHashMap<>());
    /** Runs whose plans call plan tools, replays and dry runs. */
    private final Map<Plan, Dataflow> storedOffline = Collections.synchronizedMap(new WeakHashMap<>());

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

    /**
     * The plan's dataflow for a run with these approval rules whose calls of {@code childRunTools} (canonical
     * names of plan tools) start child runs: those calls are made only at their turn.
     */
    public Dataflow of(Plan plan, boolean offline, ApprovalRules approvals, Set<String> childRunTools) {
        if (childRunTools.isEmpty() || !calls(plan, childRunTools)) {
            return of(plan, offline, approvals);
        }
        Predicate<String> child = name -> childRunTools.contains(tools.knownCanonicalName(name));
        if (offline) {
            return storedOffline.computeIfAbsent(plan, p -> Dataflow.of(p, barriers(ApprovalRules.NONE, true), child));
        }
        if (approvals.globs().equals(approveTools.globs())) {
            return storedLive.computeIfAbsent(plan, p -> Dataflow.of(p, barriers(approvals, false), child));
        }
        return Dataflow.of(plan, barriers(approvals, false), child);
    }

    private boolean calls(Plan plan, Set<String> canonicalTools) {
        for (Instruction instruction : plan.instructions()) {
            if (instruction instanceof Calling calling
                    && canonicalTools.contains(tools.knownCanonicalName(calling.tool()))) {
                return true;
            }
        }
        return false;
    }

    /** Calls that are barriers: those {@link EarlyStartRule} does not let start early. */
    private Predicate<String> barriers(ApprovalRules approvals, boolean offline) {
        EarlyStartRule rule = new EarlyStartRule(tools, policy, approvals, offline);
        return name -> !rule.mayStartEarly(name);
    }
}
