package dev.planvm.instructions.reach;

import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The analyses of one plan, run once over its expansion and shared by the report and the policy check: which
 * instructions a run reaches, where values come from ({@link Flows}), how they get there ({@link FlowChains}), how
 * often each tool is called ({@link Counts}), and which calls an approval rule gates.
 */
final class Analysis {

    final SuperGraph graph;
    final ToolFacts facts;
    final boolean[] reachable;
    final Flows flows;
    final FlowChains chains;
    final Counts counts;

    Analysis(Plan plan, ToolFacts facts, Set<String> secrets) {
        this.graph = SuperGraph.of(plan, facts);
        this.facts = facts;
        this.reachable = graph.reachable();
        Origins origins = new Origins();
        this.flows = new Flows(graph, origins, new Defs(graph, origins), secrets);
        this.chains = new FlowChains(flows);
        this.counts = new Counts(graph, reachable);
    }

    /** The reachable nodes that call a tool or send a condition to an LLM, in expansion order. */
    List<SuperGraph.Node> sinks() {
        List<SuperGraph.Node> sinks = new ArrayList<>();
        for (SuperGraph.Node node : graph.nodes) {
            if (reachable[node.id] && Counts.key(node) != null) {
                sinks.add(node);
            }
        }
        return sinks;
    }

    /** Whether an approval rule gates {@code node}'s call: its tool's own, or that of a plan-tool call around it. */
    static boolean approved(SuperGraph.Node node) {
        for (SuperGraph.Node at = node; at != null; at = at.scope.caller) {
            if (at.fact != null && at.fact.approval()) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code node} is a jump whose way is known only at run time, and what decides it; {@code null} if not. */
    static String decidedBy(SuperGraph.Node node) {
        if (node.instruction instanceof Jmp jmp) {
            if (jmp.branch() instanceof Jmp.LlmCondition) {
                return "llm";
            }
            if (jmp.branch() instanceof Jmp.LocalCondition && SuperGraph.constant(jmp.branch()) == null) {
                return "condition";
            }
        }
        return null;
    }
}
