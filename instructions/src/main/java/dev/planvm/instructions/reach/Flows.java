package dev.planvm.instructions.reach;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where each variable's value can come from at each instruction: a forward "may" data flow over the expanded
 * plan ({@link SuperGraph}) — at a join the sources of every way in are kept — from the start, where each variable
 * of the plan is its input (or secret) of that name, through the definitions of each move ({@link Defs}), to a
 * fixed point. A variable not visible at an instruction (a child plan's, outside it) is dropped.
 */
final class Flows {

    private final SuperGraph graph;
    private final Origins origins;
    private final Defs defs;
    private final int[] scopeOfVar;
    private final BitSet[] ancestors;
    /** The sources of each visible variable on entry to each node; {@code null}: not reached. */
    private final List<Map<Integer, BitSet>> in;

    private final Map<Integer, BitSet> entry = new HashMap<>();

    Flows(SuperGraph graph, Origins origins, Defs defs, Set<String> secrets) {
        this.graph = graph;
        this.origins = origins;
        this.defs = defs;
        this.scopeOfVar = new int[graph.varNames.size()];
        for (SuperGraph.Scope scope : graph.scopes) {
            scope.vars.values().forEach(var -> scopeOfVar[var] = scope.id);
        }
        this.ancestors = new BitSet[graph.scopes.size()];
        for (SuperGraph.Scope scope : graph.scopes) {
            BitSet chain = new BitSet();
            for (SuperGraph.Scope s = scope; s != null; s = s.caller == null ? null : s.caller.scope) {
                chain.set(s.id);
            }
            ancestors[scope.id] = chain;
        }
        this.in = new java.util.ArrayList<>(java.util.Collections.nCopies(graph.nodes.size(), null));
        graph.top().vars.forEach((name, var) -> {
            Reach.Kind kind = secrets.contains(name) ? Reach.Kind.SECRET : Reach.Kind.INPUT;
            BitSet set = new BitSet();
            set.set(origins.id(new Reach.Origin(kind, name, null)));
            entry.put(var, set);
        });
        solve();
    }

    /** The sources of each variable on entry to {@code node}, by variable id; null when no run reaches it. */
    Map<Integer, BitSet> in(SuperGraph.Node node) {
        return in.get(node.id);
    }

    /** The sources of a variable at the start (its input or secret). */
    BitSet atStart(int var) {
        return entry.getOrDefault(var, new BitSet());
    }

    /** The sources of a value read at {@code node} by {@code reads}. */
    BitSet sources(SuperGraph.Node node, TemplateReads reads) {
        BitSet sources = new BitSet();
        Map<Integer, BitSet> state = in.get(node.id);
        if (state != null) {
            for (int var : reads.vars()) {
                BitSet of = state.get(var);
                if (of != null) {
                    sources.or(of);
                }
            }
        }
        if (reads.literal()) {
            sources.set(Origins.LITERAL);
        }
        return sources;
    }

    Origins origins() {
        return origins;
    }

    Defs defs() {
        return defs;
    }

    SuperGraph graph() {
        return graph;
    }

    private void solve() {
        SuperGraph.Node start = graph.start();
        Map<Integer, BitSet> first = new HashMap<>();
        entry.forEach((var, set) -> first.put(var, (BitSet) set.clone()));
        in.set(start.id, first);
        ArrayDeque<SuperGraph.Node> work = new ArrayDeque<>();
        boolean[] queued = new boolean[graph.nodes.size()];
        work.add(start);
        queued[start.id] = true;
        while (!work.isEmpty()) {
            SuperGraph.Node node = work.poll();
            queued[node.id] = false;
            for (SuperGraph.Edge edge : node.out) {
                Map<Integer, BitSet> out = out(edge);
                if (merge(edge.to(), out) && !queued[edge.to().id]) {
                    queued[edge.to().id] = true;
                    work.add(edge.to());
                }
            }
        }
    }

    /** The state on leaving {@code edge.from()} along {@code edge}, restricted to what its target sees. */
    Map<Integer, BitSet> out(SuperGraph.Edge edge) {
        Map<Integer, BitSet> state = new HashMap<>(in.get(edge.from().id));
        apply(defs.along(edge), state, defs.along(edge).size());
        SuperGraph.Node to = edge.to();
        state.keySet().removeIf(var -> !visible(to, var));
        return state;
    }

    /** Applies the first {@code count} of {@code list} to {@code state} (its sets are replaced, never changed). */
    static void apply(List<Defs.Def> list, Map<Integer, BitSet> state, int count) {
        for (int i = 0; i < count; i++) {
            Defs.Def def = list.get(i);
            BitSet value = (BitSet) def.origins().clone();
            for (int read : def.reads()) {
                BitSet of = state.get(read);
                if (of != null) {
                    value.or(of);
                }
            }
            if (!def.kill()) {
                BitSet before = state.get(def.var());
                if (before != null) {
                    value.or(before);
                }
            }
            state.put(def.var(), value);
        }
    }

    private boolean visible(SuperGraph.Node node, int var) {
        int scope = scopeOfVar[var];
        return ancestors[node.scope.id].get(scope) || (node.isReturn && node.call.child.id == scope);
    }

    private boolean merge(SuperGraph.Node to, Map<Integer, BitSet> out) {
        Map<Integer, BitSet> state = in.get(to.id);
        if (state == null) {
            in.set(to.id, out);
            return true;
        }
        boolean changed = false;
        for (Map.Entry<Integer, BitSet> e : out.entrySet()) {
            BitSet known = state.get(e.getKey());
            if (known == null) {
                state.put(e.getKey(), (BitSet) e.getValue().clone());
                changed = true;
            } else {
                int before = known.cardinality();
                BitSet merged = (BitSet) known.clone();
                merged.or(e.getValue());
                if (merged.cardinality() != before) {
                    state.put(e.getKey(), merged);
                    changed = true;
                }
            }
        }
        return changed;
    }
}
