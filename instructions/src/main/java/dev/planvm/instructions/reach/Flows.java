package dev.planvm.instructions.reach;

import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * Where each variable's value can come from at each instruction: a forward "may" data flow over the expanded
 * plan ({@link SuperGraph}) — at a join the sources of every way in are kept — from the start, where each variable
 * of the plan is its input (or secret) of that name, through the definitions of each move ({@link Defs}), to a
 * fixed point. A variable not visible at an instruction (a child plan's, outside it) is dropped.
 *
 * <p>A state is an array of source sets indexed by variable ({@code null}: no source); sets are never changed once in a
 * state, so states share them and a move copies only the array.
 */
final class Flows {

    private static final BitSet NONE = new BitSet();

    /**
     * The most instruction-by-variable cells the analysis keeps per path; a larger plan (a hostile one: thousands of
     * instructions each with a variable of its own) is followed over the whole plan at once instead, in memory of one
     * state: still sound, but an assignment no longer replaces what a variable held.
     */
    static final long MAX_CELLS = 2_000_000;

    private final SuperGraph graph;
    private final Origins origins;
    private final Defs defs;
    private final int[] scopeOfVar;
    private final BitSet[] ancestors;
    /** The sources of each variable on entry to each node; {@code null}: not reached. */
    private final BitSet[][] in;

    private final BitSet[] entry;

    Flows(SuperGraph graph, Origins origins, Defs defs, Set<String> secrets) {
        this.graph = graph;
        this.origins = origins;
        this.defs = defs;
        int vars = graph.varNames.size();
        this.scopeOfVar = new int[vars];
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
        this.in = new BitSet[graph.nodes.size()][];
        this.entry = new BitSet[vars];
        graph.top().vars.forEach((name, var) -> {
            Reach.Kind kind = secrets.contains(name) ? Reach.Kind.SECRET : Reach.Kind.INPUT;
            BitSet set = new BitSet();
            set.set(origins.id(new Reach.Origin(kind, name, null)));
            entry[var] = set;
        });
        if ((long) graph.nodes.size() * vars <= MAX_CELLS) {
            solve();
        } else {
            solveWhole();
            graph.notes.add("the expanded plan has " + graph.nodes.size() + " instructions and " + vars
                    + " variables: where values come from is followed over the whole plan at once, not path by path"
                    + " (a later assignment does not replace what a variable held)");
        }
    }

    /** The sources of each variable on entry to {@code node}, by variable id ({@code null}: none); null when not reached. */
    BitSet[] in(SuperGraph.Node node) {
        return in[node.id];
    }

    /** The sources of a variable at the start (its input or secret). */
    BitSet atStart(int var) {
        return entry[var] == null ? NONE : entry[var];
    }

    /** The sources of a value read at {@code node} by {@code reads}. */
    BitSet sources(SuperGraph.Node node, TemplateReads reads) {
        BitSet sources = new BitSet();
        BitSet[] state = in[node.id];
        if (state != null) {
            for (int var : reads.vars()) {
                if (state[var] != null) {
                    sources.or(state[var]);
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
        in[start.id] = entry.clone();
        ArrayDeque<SuperGraph.Node> work = new ArrayDeque<>();
        boolean[] queued = new boolean[graph.nodes.size()];
        work.add(start);
        queued[start.id] = true;
        while (!work.isEmpty()) {
            SuperGraph.Node node = work.poll();
            queued[node.id] = false;
            for (SuperGraph.Edge edge : node.out) {
                if (merge(edge.to(), out(edge)) && !queued[edge.to().id]) {
                    queued[edge.to().id] = true;
                    work.add(edge.to());
                }
            }
        }
    }

    /** One state for every instruction: each definition adds to its variable until nothing changes. */
    private void solveWhole() {
        BitSet[] whole = entry.clone();
        boolean[] reached = graph.reachable();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (SuperGraph.Node node : graph.nodes) {
                if (!reached[node.id]) {
                    continue;
                }
                for (SuperGraph.Edge edge : node.out) {
                    for (Defs.Def def : defs.along(edge)) {
                        BitSet value = (BitSet) def.origins().clone();
                        for (int read : def.reads()) {
                            if (whole[read] != null) {
                                value.or(whole[read]);
                            }
                        }
                        if (value.isEmpty() || (whole[def.var()] != null && contains(whole[def.var()], value))) {
                            continue;
                        }
                        if (whole[def.var()] != null) {
                            value.or(whole[def.var()]);
                        }
                        whole[def.var()] = value;
                        changed = true;
                    }
                }
            }
        }
        for (SuperGraph.Node node : graph.nodes) {
            if (reached[node.id]) {
                in[node.id] = whole;
            }
        }
    }

    /** The state on leaving {@code edge.from()} along {@code edge}, restricted to what its target sees. */
    BitSet[] out(SuperGraph.Edge edge) {
        BitSet[] state = in[edge.from().id].clone();
        List<Defs.Def> list = defs.along(edge);
        apply(list, state, list.size());
        SuperGraph.Node to = edge.to();
        if (edge.from().scope != to.scope || edge.from().isReturn || to.isReturn) {
            for (int var = 0; var < state.length; var++) {
                if (state[var] != null && !visible(to, var)) {
                    state[var] = null;
                }
            }
        }
        return state;
    }

    /** Applies the first {@code count} of {@code list} to {@code state} (its sets are replaced, never changed). */
    static void apply(List<Defs.Def> list, BitSet[] state, int count) {
        for (int i = 0; i < count; i++) {
            Defs.Def def = list.get(i);
            BitSet value = (BitSet) def.origins().clone();
            for (int read : def.reads()) {
                if (state[read] != null) {
                    value.or(state[read]);
                }
            }
            if (!def.kill() && state[def.var()] != null) {
                value.or(state[def.var()]);
            }
            state[def.var()] = value.isEmpty() ? null : value;
        }
    }

    private boolean visible(SuperGraph.Node node, int var) {
        int scope = scopeOfVar[var];
        return ancestors[node.scope.id].get(scope) || (node.isReturn && node.call.child.id == scope);
    }

    private boolean merge(SuperGraph.Node to, BitSet[] out) {
        BitSet[] state = in[to.id];
        if (state == null) {
            in[to.id] = out;
            return true;
        }
        boolean changed = false;
        for (int var = 0; var < out.length; var++) {
            BitSet add = out[var];
            BitSet known = state[var];
            if (add == null || add == known) {
                continue;
            }
            if (known == null) {
                state[var] = add;
                changed = true;
            } else if (!contains(known, add)) {
                BitSet merged = (BitSet) known.clone();
                merged.or(add);
                state[var] = merged;
                changed = true;
            }
        }
        return changed;
    }

    /** Whether every bit of {@code part} is in {@code whole}. */
    private static boolean contains(BitSet whole, BitSet part) {
        for (int i = part.nextSetBit(0); i >= 0; i = part.nextSetBit(i + 1)) {
            if (!whole.get(i)) {
                return false;
            }
        }
        return true;
    }
}
