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
 * ({@link Dataflows}, read by the run's {@link Speculator}) and plans still arriving ({@link StreamedStarts}).
 * A call may start early only when the tool policy allows the tool, no approval rule matches it (rules match
 * the canonical name, whatever the plan's spelling), and the tool is known to have no side effects; else it
 * is a {@linkplain Start#BARRIER barrier}. A tool that is not known may start early only when calls are
 * answered without the tools (a replay or a dry run, which also set no tool up to ask: names are looked up
 * among the tools already known). A call of a plan tool that may otherwise start early is made
 * {@linkplain Start#AT_TURN at its turn} but is no barrier: a child run started early and then discarded would
 * spend steps of its run tree's shared budget that a sequential run never spends, and in a stored run leave a
 * stored child run that looks real.
 */
public final class EarlyStartRule {

    /** When a call of a tool may start. */
    public enum Start {
        /** Before its turn, once its inputs are known. */
        EARLY,
        /** Only at its turn, but later independent calls may start before it (a plan-tool call). */
        AT_TURN,
        /** Only at its turn, and no later call starts before it (denied, approved, side effects, unknown). */
        BARRIER
    }

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
     * As {@link #EarlyStartRule(ToolRegistry, ToolPolicy, ApprovalRules, boolean)}, where a call of one of
     * {@code childRunTools} (canonical names of plan tools) starts a child run of the run that makes it: it is
     * made {@linkplain Start#AT_TURN at its turn}, when not a barrier anyway.
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

    /** When a call of {@code toolName} (as the plan spells it) may start. */
    public Start startOf(String toolName) {
        String canonical = toolsAnswered ? tools.knownCanonicalName(toolName) : tools.canonicalName(toolName);
        ToolNames names = toolsAnswered ? tools.knownCanonicalNames() : tools.canonicalNames();
        if (!policy.allows(canonical, names)) {
            return Start.BARRIER; // denied: it fails at its turn
        }
        if (!approvals.isEmpty() && approvals.matches(canonical, names)) {
            return Start.BARRIER; // a reviewer decides at its turn
        }
        Optional<Tool> tool = toolsAnswered ? tools.findResolved(toolName) : tools.find(toolName);
        if (!tool.map(t -> !t.hasSideEffects()).orElse(toolsAnswered)) {
            return Start.BARRIER;
        }
        return childRunTools.contains(canonical) ? Start.AT_TURN : Start.EARLY; // a child run: of the run, at its turn
    }

    /**
     * Whether a call of {@code toolName} (as the plan spells it) starts a child run of the run that makes it (a
     * plan tool's, side effects or not): no answer of a call started before that run stands in for it.
     */
    public boolean startsChildRun(String toolName) {
        return !childRunTools.isEmpty() && childRunTools.contains(tools.knownCanonicalName(toolName));
    }

    /** Whether a call of {@code toolName} (as the plan spells it) may start before its turn. */
    public boolean mayStartEarly(String toolName) {
        return startOf(toolName) == Start.EARLY;
    }
}
