package dev.planvm.vm.internal;

import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.ApprovalRules;
import java.util.Optional;
import java.util.Set;

/**
 * The one rule for "may a call of this tool start before its turn", for complete plans
 * ({@link Dataflows}: a call that may not is a barrier) and plans still arriving
 * ({@link StreamedStarts}: the start of the plan ends at it). A call may start early only when the
 * tool policy allows the tool, no approval rule matches it (rules match the canonical name, whatever
 * the plan's spelling), and the tool is known to have no side effects. A tool that is not known may
 * start early only when calls are answered without the tools (a replay or a dry run, which also set
 * no tool up to ask: names are looked up among the tools already known).
 */
public final class EarlyStartRule {

    private final ToolRegistry tools;
    private final ToolPolicy policy;
    private final ApprovalRules approvals;
    private final boolean toolsAnswered;
    private final Set<String> childRunTools;

    /**
     * @param approvals     the run's approval rules ({@link ApprovalRules#NONE} when calls are answered:
     *                      a replay asks nobody)
     * @param toolsAnswered whether calls are answered without the tools (a replay or a dry run)
     */
    public EarlyStartRule(ToolRegistry tools, ToolPolicy policy, ApprovalRules approvals, boolean toolsAnswered) {
        this(tools, policy, approvals, toolsAnswered, Set.of());
    }

    /**
     * As {@link #EarlyStartRule(ToolRegistry, ToolPolicy, ApprovalRules, boolean)}, and a call of one of
     * {@code childRunTools} (canonical names of plan tools) never starts early: it is a child run of the run
     * that makes it at its turn (stored with its lineage when the run is), which a call started ahead of any
     * run cannot be.
     */
    public EarlyStartRule(
            ToolRegistry tools,
            ToolPolicy policy,
            ApprovalRules approvals,
            boolean toolsAnswered,
            Set<String> childRunTools) {
        this.tools = tools;
        this.policy = policy;
        this.approvals = approvals;
        this.toolsAnswered = toolsAnswered;
        this.childRunTools = Set.copyOf(childRunTools);
    }

    /** Whether a call of {@code toolName} (as the plan spells it) may start before its turn. */
    public boolean mayStartEarly(String toolName) {
        String canonical = toolsAnswered ? tools.knownCanonicalName(toolName) : tools.canonicalName(toolName);
        ToolNames names = toolsAnswered ? tools.knownCanonicalNames() : tools.canonicalNames();
        if (!policy.allows(canonical, names)) {
            return false; // denied: it fails at its turn
        }
        if (!approvals.isEmpty() && approvals.matches(canonical, names)) {
            return false; // a reviewer decides at its turn
        }
        if (childRunTools.contains(canonical)) {
            return false; // a child run of the run, at its turn
        }
        Optional<Tool> tool = toolsAnswered ? tools.findResolved(toolName) : tools.find(toolName);
        return tool.map(t -> !t.hasSideEffects()).orElse(toolsAnswered);
    }
}
