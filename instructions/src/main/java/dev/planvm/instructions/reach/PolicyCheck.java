package dev.planvm.instructions.reach;

import dev.planvm.json.Globs;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * What in a plan breaks a {@link ReachPolicy}, each with the path that shows it: the path from the start to a call no
 * approval rule gates, the loop or the heaviest path that calls a tool too often, the chain of variables that carries
 * a denied source to a tool.
 */
final class PolicyCheck {

    /** The most violations listed: a plan that breaks a policy this often is refused all the same. */
    static final int MAX_VIOLATIONS = 100;

    private final Analysis analysis;
    private final List<Reach.Violation> out = new ArrayList<>();
    private int more;

    private PolicyCheck(Analysis analysis) {
        this.analysis = analysis;
    }

    static List<Reach.Violation> check(Analysis analysis, ReachPolicy policy) {
        PolicyCheck check = new PolicyCheck(analysis);
        if (!policy.requireApprovalFor().isEmpty()) {
            check.approvals(policy);
        }
        policy.maxCalls().forEach(check::limit);
        policy.denyFlows().forEach(check::flows);
        if (check.more > 0) {
            Reach.Violation last = check.out.get(check.out.size() - 1);
            check.out.add(new Reach.Violation(
                    last.rule(),
                    null,
                    check.more + " more violations are not listed (the first " + MAX_VIOLATIONS + " are)"));
        }
        return List.copyOf(check.out);
    }

    /** Adds a violation, or counts it past {@link #MAX_VIOLATIONS}. */
    private void add(Reach.Violation violation) {
        if (out.size() < MAX_VIOLATIONS) {
            out.add(violation);
        } else {
            more++;
        }
    }

    private boolean full() {
        return out.size() >= MAX_VIOLATIONS;
    }

    private void approvals(ReachPolicy policy) {
        boolean all = policy.requireApprovalFor().contains(ReachPolicy.SIDE_EFFECTS);
        for (SuperGraph.Node node : analysis.sinks()) {
            if (!node.isLeafCall() || Analysis.approved(node)) {
                continue;
            }
            ToolFacts.Effect effect = node.fact.effect();
            boolean required = all
                    ? effect.mayChangeTheWorld()
                    : effect == ToolFacts.Effect.DESTRUCTIVE || effect == ToolFacts.Effect.UNKNOWN;
            if (!required) {
                continue;
            }
            if (full()) {
                more++; // no path to look for: it would not be listed
                continue;
            }
            String tool = node.fact.canonicalName();
            String what = switch (effect) {
                case DESTRUCTIVE -> tool + " is destructive";
                case UNKNOWN -> tool + " is not known here, so it may change the world";
                default -> tool + " has side effects";
            };
            String rule = all ? ReachPolicy.SIDE_EFFECTS : ReachPolicy.DESTRUCTIVE;
            add(new Reach.Violation(
                    "requireApprovalFor",
                    node.site,
                    node.site.describe() + ": " + what + " and no approval rule gates it: the path "
                            + path(analysis.graph.pathTo(node)) + " reaches it without approval (requireApprovalFor: "
                            + rule + "; name it in approveTools or --approve-tools)"));
        }
    }

    private void limit(String rule, Long limit) {
        java.util.Set<String> tools = new java.util.LinkedHashSet<>();
        for (SuperGraph.Node node : analysis.sinks()) {
            String key = Counts.key(node);
            if (key.equals(Reach.CONDITION) ? Globs.matches(rule, key) : analysis.facts.matches(rule, key)) {
                tools.add(key);
            }
        }
        for (String tool : tools) {
            Counts.Result result = analysis.counts.of(tool);
            Reach.Count count = result.count();
            String bound = "(maxCalls: " + rule + " ≤ " + limit + ")";
            if (count.unbounded()) {
                Reach.Site first = count.loop().get(0);
                add(new Reach.Violation(
                        "maxCalls",
                        first,
                        first.describe() + ": " + tool + " can be called without bound: the loop " + path(count.loop())
                                + " repeats it " + bound));
            } else if (count.atMost() > limit) {
                Reach.Site first =
                        result.path().isEmpty() ? null : result.path().get(0);
                String where = result.path().isEmpty() ? "" : " through " + sites(result.path());
                add(new Reach.Violation(
                        "maxCalls",
                        first,
                        (first == null ? "" : first.describe() + ": ") + tool + " can be called " + times(count)
                                + " on one path" + where + " " + bound));
            }
        }
    }

    private void flows(ReachPolicy.DenyFlow rule) {
        Origins origins = analysis.flows.origins();
        for (SuperGraph.Node node : analysis.sinks()) {
            String tool = Counts.key(node);
            boolean matches = tool.equals(Reach.CONDITION)
                    ? Globs.matches(rule.to(), tool)
                    : analysis.facts.matches(rule.to(), tool);
            if (!matches) {
                continue;
            }
            for (Map.Entry<String, TemplateReads> param : Defs.sinkParams(node).entrySet()) {
                BitSet sources = analysis.flows.sources(node, param.getValue());
                for (int id = sources.nextSetBit(0); id >= 0; id = sources.nextSetBit(id + 1)) {
                    Reach.Origin origin = origins.get(id);
                    if (!denies(rule, origin)) {
                        continue;
                    }
                    if (full()) {
                        more++; // no chain to look for: it would not be listed
                        continue;
                    }
                    List<FlowChains.Hop> hops = analysis.chains.chain(node, param.getValue(), id);
                    StringJoiner chain = new StringJoiner(" → ");
                    chain.add(origin.describe());
                    hops.forEach(hop -> chain.add(hop.var() + " (" + hop.site().describe() + ")"));
                    add(new Reach.Violation(
                            "denyFlows",
                            node.site,
                            node.site.describe() + ": " + origin.describe() + " reaches " + tool + "." + param.getKey()
                                    + ": " + chain + " → " + tool + "." + param.getKey() + " (denyFlows: " + rule
                                    + ")"));
                }
            }
        }
    }

    private boolean denies(ReachPolicy.DenyFlow rule, Reach.Origin origin) {
        Reach.Kind kind = rule.kind();
        boolean kindMatches = kind == origin.kind() || (kind == Reach.Kind.TOOL && origin.kind() == Reach.Kind.LLM);
        if (!kindMatches) {
            return false;
        }
        return switch (origin.kind()) {
            case LITERAL -> true;
            case INPUT, SECRET, UNKNOWN -> Globs.matches(rule.glob(), origin.name());
            case LLM, TOOL -> rule.glob().equals("*") || analysis.facts.matches(rule.glob(), origin.name());
        };
    }

    static String path(List<Reach.Site> sites) {
        if (sites == null) {
            return "?";
        }
        StringJoiner joiner = new StringJoiner(" → ");
        int shown = sites.size() <= 12 ? sites.size() : 5;
        for (int i = 0; i < shown; i++) {
            joiner.add(sites.get(i).shortForm());
        }
        if (shown < sites.size()) {
            joiner.add("…");
            for (int i = sites.size() - 5; i < sites.size(); i++) {
                joiner.add(sites.get(i).shortForm());
            }
        }
        return joiner.toString();
    }

    private static String sites(List<Reach.Site> sites) {
        StringJoiner joiner = new StringJoiner(", ");
        for (int i = 0; i < Math.min(sites.size(), 12); i++) {
            joiner.add(sites.get(i).shortForm());
        }
        if (sites.size() > 12) {
            joiner.add("… (" + (sites.size() - 12) + " more)");
        }
        return "seq_no " + joiner;
    }

    private static String times(Reach.Count count) {
        if (count.perElement() == 0) {
            return count.calls() == 1 ? "once" : count.calls() + " times";
        }
        return "up to " + count.atMost() + " times (" + count.describe() + "; a for_each maps at most "
                + Reach.Count.MAX_ELEMENTS + " elements)";
    }
}
