package dev.planvm.cli;

import dev.planvm.instructions.reach.ReachPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * {@code --require-approval-for}, {@code --max-calls}, {@code --deny-flow}: what a plan must not be able to do on any
 * path ({@link ReachPolicy}), besides the {@code policy} section of the configuration. {@code validate} refuses a plan
 * that breaks it; every command that runs plans refuses it before the run starts.
 */
final class ReachPolicyOptions {

    @CommandLine.Option(
            names = "--require-approval-for",
            paramLabel = "side_effects|destructive",
            split = ",",
            description =
                    "Refuse a plan that can reach a call of this kind with no approval rule gating it: side_effects"
                            + " (every call that may change the world; a tool not known counts) or destructive. Also"
                            + " policy.requireApprovalFor in the configuration. Comma-separated, repeatable.")
    private List<String> requireApprovalFor = List.of();

    @CommandLine.Option(
            names = "--max-calls",
            paramLabel = "TOOL=N",
            description = "Refuse a plan that can call TOOL (a name or glob) more than N times on one path; a loop that"
                    + " calls it counts as unbounded, a for_each over a run-time list as up to 1000 per element. Also"
                    + " policy.maxCalls. Repeatable.")
    private Map<String, Long> maxCalls = Map.of();

    @CommandLine.Option(
            names = "--deny-flow",
            paramLabel = "FROM=TO",
            description =
                    "Refuse a plan in which a value from FROM can reach a param of TOOL TO: FROM is literal, input,"
                            + " secret, llm, tool or unknown, optionally with :GLOB ('secret:*=http:*'). Also policy.denyFlows."
                            + " Repeatable.")
    private List<String> denyFlows = List.of();

    /** The policy the flags say (empty without them); a malformed value is a usage error. */
    ReachPolicy policy(CommandLine commandLine) {
        try {
            Set<String> approval = new LinkedHashSet<>();
            requireApprovalFor.forEach(value -> approval.add(value.strip()));
            List<ReachPolicy.DenyFlow> flows = new ArrayList<>();
            denyFlows.forEach(flow -> flows.add(ReachPolicy.DenyFlow.parse(flow)));
            return new ReachPolicy(approval, new LinkedHashMap<>(maxCalls), flows);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
    }
}
