package dev.planvm.instructions.reach;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How a source reaches a read, as a chain of variables: the shortest sequence of definitions that carries the source
 * from where it enters (the start, for an input or secret; the call that produced it) to the read — "secret
 * API_KEY → auth (seq_no 2) → mail:send_mail.to at seq_no 5". Found by walking the data flow's states backwards
 * ({@link Flows}), so every step of the chain is a definition the analysis used.
 */
final class FlowChains {

    /** One step of a chain: {@code var} gets the value at {@code site}. */
    record Hop(String var, Reach.Site site) {}

    private final Flows flows;

    FlowChains(Flows flows) {
        this.flows = flows;
    }

    /** A key of the search: variable {@code var} on entry to {@code node} carries the source. */
    private record At(SuperGraph.Node node, int var) {}

    /** A step back: from {@code next} (closer to the read), with the hop it passed. */
    private record Back(At next, Hop hop) {}

    /** The hops from {@code origin}'s entry to the read {@code reads} at {@code node}, oldest first; empty if direct. */
    List<Hop> chain(SuperGraph.Node node, TemplateReads reads, int origin) {
        BitSet[] state = flows.in(node);
        ArrayDeque<At> work = new ArrayDeque<>();
        Map<At, Back> parent = new HashMap<>();
        for (int var : reads.vars()) {
            BitSet of = state == null ? null : state[var];
            if (of != null && of.get(origin)) {
                At at = new At(node, var);
                if (parent.putIfAbsent(at, new Back(null, null)) == null) {
                    work.add(at);
                }
            }
        }
        while (!work.isEmpty()) {
            At at = work.poll();
            if (at.node() == flows.graph().start() && flows.atStart(at.var()).get(origin)) {
                return hops(at, parent);
            }
            for (SuperGraph.Edge edge : at.node().in) {
                BitSet[] before = flows.in(edge.from());
                if (before == null) {
                    continue;
                }
                Step step = stepBack(edge, before, at.var(), origin);
                if (step == null) {
                    continue;
                }
                if (step.found()) {
                    List<Hop> hops = new ArrayList<>();
                    hops.add(step.hop());
                    hops.addAll(hops(at, parent));
                    return hops;
                }
                for (int var : step.vars()) {
                    At prior = new At(edge.from(), var);
                    if (parent.putIfAbsent(prior, new Back(at, step.hop())) == null) {
                        work.add(prior);
                    }
                }
            }
        }
        return List.of();
    }

    /**
     * What carries {@code origin} into {@code var} along {@code edge}: the definition that introduces it ({@code found}),
     * or the variables on entry to the edge's source that carry it; {@code null} when this edge does not.
     */
    private Step stepBack(SuperGraph.Edge edge, BitSet[] in, int var, int origin) {
        List<Defs.Def> defs = flows.defs().along(edge);
        int last = -1;
        for (int i = 0; i < defs.size(); i++) {
            if (defs.get(i).var() == var) {
                last = i;
            }
        }
        if (last < 0) {
            BitSet of = in[var];
            return of != null && of.get(origin) ? new Step(false, null, new int[] {var}) : null;
        }
        Hop hop = new Hop(flows.graph().varNames.get(var), edge.from().site);
        List<Integer> vars = new ArrayList<>();
        if (within(defs, last, in, origin, vars)) {
            return new Step(true, hop, null);
        }
        return vars.isEmpty()
                ? null
                : new Step(false, hop, vars.stream().mapToInt(Integer::intValue).toArray());
    }

    /**
     * Whether definition {@code index} introduces {@code origin} itself (directly or through an earlier definition of the
     * same move); else adds to {@code vars} the variables on entry to the move that carry it into the definition.
     */
    private static boolean within(List<Defs.Def> defs, int index, BitSet[] in, int origin, List<Integer> vars) {
        Defs.Def def = defs.get(index);
        if (def.origins().get(origin)) {
            return true;
        }
        BitSet[] state = in;
        if (index > 0) {
            state = in.clone();
            Flows.apply(defs, state, index);
        }
        List<Integer> reads = new ArrayList<>();
        for (int read : def.reads()) {
            reads.add(read);
        }
        if (!def.kill()) {
            reads.add(def.var());
        }
        for (int read : reads) {
            BitSet of = state[read];
            if (of == null || !of.get(origin)) {
                continue;
            }
            int earlier = -1;
            for (int j = 0; j < index; j++) {
                if (defs.get(j).var() == read) {
                    earlier = j;
                }
            }
            if (earlier >= 0) {
                if (within(defs, earlier, in, origin, vars)) {
                    return true;
                }
            } else if (!vars.contains(read)) {
                vars.add(read);
            }
        }
        return false;
    }

    private record Step(boolean found, Hop hop, int[] vars) {}

    private static List<Hop> hops(At from, Map<At, Back> parent) {
        List<Hop> hops = new ArrayList<>();
        for (At at = from; at != null; ) {
            Back back = parent.get(at);
            if (back == null || back.next() == null) {
                break;
            }
            if (back.hop() != null) {
                hops.add(back.hop());
            }
            at = back.next();
        }
        return hops;
    }
}
