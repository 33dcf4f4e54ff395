package dev.planvm.vm.internal;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The dependency facts of the plans a VM runs, cached per plan: calls of tools with side effects, and
 * of tools that need approval, are barriers. A replay or a dry run asks which tools have side effects
 * without setting any up (no MCP server starts to answer from a cassette). Thread-safe.
 */
public final class Dataflows {

    private final ToolRegistry tools;
    private final ApprovalRules approveTools;
    /** Live runs with the VM's own approval rules. */
    private final Map<Plan, Dataflow> live = Collections.synchronizedMap(new WeakHashMap<>());
    /** Replays and dry runs: they never set a tool up. */
    private final Map<Plan, Dataflow> offline = Collections.synchronizedMap(new WeakHashMap<>());
    /** Live runs without approval barriers (a run with no approval rules when the VM has some). */
    private final Map<Plan, Dataflow> noApproval = Collections.synchronizedMap(new WeakHashMap<>());

    /** @param approveTools the VM's own approval rules */
    public Dataflows(ToolRegistry tools, ApprovalRules approveTools) {
        this.tools = tools;
        this.approveTools = approveTools;
    }

    /**
     * The plan's dataflow for a run with these approval rules.
     *
     * @param offline whether the run calls nothing real (a replay, a dry run)
     */
    public Dataflow of(Plan plan, boolean offline, ApprovalRules approvals) {
        if (offline) {
            return this.offline.computeIfAbsent(
                    plan, p -> Dataflow.of(p, barriers(approvals, tools::findResolved, tools::knownCanonicalName)));
        }
        if (approvals.globs().equals(approveTools.globs())) {
            return live.computeIfAbsent(
                    plan, p -> Dataflow.of(p, barriers(approvals, tools::find, tools::canonicalName)));
        }
        if (approvals.isEmpty()) {
            return noApproval.computeIfAbsent(
                    plan, p -> Dataflow.of(p, barriers(approvals, tools::find, tools::canonicalName)));
        }
        return Dataflow.of(plan, barriers(approvals, tools::find, tools::canonicalName));
    }

    /** Calls that are barriers: of a tool that needs approval (by its canonical name), or that has side effects. */
    private Predicate<String> barriers(
            ApprovalRules approvals, Function<String, Optional<Tool>> lookup, UnaryOperator<String> canonical) {
        return name -> !approvals.isEmpty() && approvals.matches(canonical.apply(name), tools.canonicalNames())
                || lookup.apply(name).map(Tool::hasSideEffects).orElse(false);
    }
}
