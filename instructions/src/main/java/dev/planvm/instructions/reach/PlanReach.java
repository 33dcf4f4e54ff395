package dev.planvm.instructions.reach;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Plan;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a plan can do, before it runs: the one entry of the reach analysis. The plan — any dialect, once compiled to
 * the StackVM form — is expanded with its plan tools ({@link ToolFacts.Fact#plan()}), then analysed over every path
 * from its start: which tools it reaches and how often, which calls that may change the world no approval rule
 * gates, where each param's value can come from, which hosts it reaches; and, given a {@link ReachPolicy}, what
 * breaks it.
 *
 * <p>Sound rather than guessing: a jump decided at run time (by an LLM, or by a condition over run-time values) is
 * taken both ways; a tool nothing is known of may change the world; a tool's output can carry what it was given; a
 * loop that calls a tool makes its count unbounded; a {@code for_each} over a list known only at run time calls once
 * per element (at most {@value dev.planvm.instructions.ForEach#MAX_ELEMENTS}). Implicit flows — a value that decides
 * a jump, and so what runs after it — are not sources of what runs after it. Knows nothing of the engine; pure and
 * thread-safe.
 *
 * <pre>{@code
 * Reach reach = PlanReach.analyze(plan, facts, Set.of("API_KEY"), policy);
 * reach.violations().forEach(v -> System.err.println(v.message()));
 * System.out.println(reach.table());
 * }</pre>
 */
public final class PlanReach {

    /** The built-in LLM tool: its output is an LLM's answer. */
    public static final String LLM_TOOL = "llm_generate";

    /** The most sources the report lists for one param (the policy check reads them all). */
    static final int MAX_ORIGINS = 200;

    /** The most sources the report lists in all, so its document stays a few MiB whatever the plan. */
    static final int MAX_LISTED = 50_000;

    private PlanReach() {}

    /** {@link #analyze(Plan, ToolFacts, Set, ReachPolicy)} with no secrets and no policy. */
    public static Reach analyze(Plan plan, ToolFacts facts) {
        return analyze(plan, facts, Set.of(), ReachPolicy.NONE);
    }

    /**
     * The reach of {@code plan}.
     *
     * @param facts   what is known of the tools it calls
     * @param secrets the names of the variables the run is given as secrets ({@code --secret NAME})
     * @param policy  what the plan must not do ({@link ReachPolicy#NONE}: report only)
     */
    public static Reach analyze(Plan plan, ToolFacts facts, Set<String> secrets, ReachPolicy policy) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(facts, "facts");
        Analysis analysis = new Analysis(plan, facts, Set.copyOf(secrets));
        List<Reach.Violation> violations = PolicyCheck.check(analysis, Objects.requireNonNull(policy, "policy"));
        return report(plan, analysis, violations);
    }

    private static Reach report(Plan plan, Analysis analysis, List<Reach.Violation> violations) {
        Map<String, List<SuperGraph.Node>> byTool = new TreeMap<>();
        for (SuperGraph.Node node : analysis.sinks()) {
            byTool.computeIfAbsent(Counts.key(node), k -> new ArrayList<>()).add(node);
        }
        List<Reach.ToolReach> tools = new ArrayList<>();
        Set<String> hosts = new TreeSet<>();
        Set<String> unknown = new LinkedHashSet<>();
        int[] cut = {0, MAX_LISTED};
        byTool.forEach((tool, nodes) -> {
            Reach.ToolReach entry = tool(analysis, tool, nodes, cut);
            tools.add(entry);
            if (entry.kind() != Reach.ToolKind.PLAN_TOOL) {
                hosts.addAll(entry.hosts());
            }
            if (entry.kind() == Reach.ToolKind.TOOL && entry.effect() == ToolFacts.Effect.UNKNOWN) {
                unknown.add(tool);
            }
        });
        List<Reach.Branch> branches = new ArrayList<>();
        for (SuperGraph.Node node : analysis.graph.nodes) {
            String decidedBy = Analysis.decidedBy(node);
            if (decidedBy != null && analysis.reachable[node.id]) {
                branches.add(new Reach.Branch(node.site, decidedBy));
            }
        }
        List<String> notes = new ArrayList<>(analysis.graph.notes);
        if (cut[0] > 0) {
            notes.add(cut[0] + " params can carry more sources than are listed (at most " + MAX_ORIGINS
                    + " a param and " + MAX_LISTED + " in all)");
        }
        for (String tool : unknown) {
            notes.add("tool " + tool + " is not known here (not installed, or set up only when a run calls it): it"
                    + " is taken to change the world");
        }
        return new Reach(
                plan.source(), analysis.graph.complete, tools, List.copyOf(hosts), branches, notes, violations);
    }

    private static Reach.ToolReach tool(Analysis analysis, String tool, List<SuperGraph.Node> nodes, int[] cut) {
        SuperGraph.Node first = nodes.get(0);
        Reach.ToolKind kind = first.isCall()
                ? (first.fact.isPlanTool() ? Reach.ToolKind.PLAN_TOOL : Reach.ToolKind.TOOL)
                : Reach.ToolKind.CONDITION;
        ToolFacts.Effect effect = ToolFacts.Effect.NONE;
        Set<String> hosts = new TreeSet<>();
        List<Reach.Call> calls = new ArrayList<>();
        List<Reach.Site> unapproved = null;
        for (SuperGraph.Node node : nodes) {
            if (node.isCall()) {
                if (node.child != null) {
                    for (SuperGraph.Node inner : analysis.graph.descendants(node.child)) {
                        if (inner.isLeafCall() && analysis.reachable[inner.id]) {
                            effect = combine(effect, inner.fact.effect());
                            hosts.addAll(inner.fact.hosts());
                        }
                    }
                } else {
                    effect = combine(effect, node.fact.effect());
                    hosts.addAll(node.fact.hosts());
                }
            }
            boolean approved = node.isCall() && Analysis.approved(node);
            if (unapproved == null
                    && node.isLeafCall()
                    && !approved
                    && node.fact.effect().mayChangeTheWorld()) {
                unapproved = analysis.graph.pathTo(node);
            }
            calls.add(new Reach.Call(
                    node.site,
                    node.isCall() && ((Calling) node.instruction).forEach() != null,
                    approved,
                    params(analysis, node, cut)));
        }
        boolean approval = first.isCall() && first.fact.approval();
        return new Reach.ToolReach(
                tool,
                kind,
                effect,
                approval,
                List.copyOf(hosts),
                calls,
                analysis.counts.of(tool).count(),
                unapproved);
    }

    /**
     * Where each param of {@code node} can come from: at most {@value #MAX_ORIGINS} sources each and
     * {@value #MAX_LISTED} in all (a larger set is cut and counted in {@code cut[0]}, {@code cut[1]} what is left of the
     * whole: the policy check reads them all, the report lists the first).
     */
    private static Map<String, List<Reach.Origin>> params(Analysis analysis, SuperGraph.Node node, int[] cut) {
        Map<String, List<Reach.Origin>> params = new LinkedHashMap<>();
        Defs.sinkParams(node).forEach((name, reads) -> {
            BitSet sources = analysis.flows.sources(node, reads);
            List<Reach.Origin> list = analysis.flows.origins().list(sources);
            int room = Math.min(MAX_ORIGINS, cut[1]);
            if (list.size() > room) {
                cut[0]++;
                list = List.copyOf(list.subList(0, room));
            }
            cut[1] -= list.size();
            params.put(name, list);
        });
        return params;
    }

    /** The most a call of either effect may do: destructive, else unknown, else side effects, else none. */
    static ToolFacts.Effect combine(ToolFacts.Effect a, ToolFacts.Effect b) {
        if (a == ToolFacts.Effect.DESTRUCTIVE || b == ToolFacts.Effect.DESTRUCTIVE) {
            return ToolFacts.Effect.DESTRUCTIVE;
        }
        if (a == ToolFacts.Effect.UNKNOWN || b == ToolFacts.Effect.UNKNOWN) {
            return ToolFacts.Effect.UNKNOWN;
        }
        return a.ordinal() >= b.ordinal() ? a : b;
    }
}
