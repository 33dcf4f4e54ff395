package dev.planvm.instructions.reach;

import dev.planvm.instructions.Jmp;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The most calls of each tool on any path of a run: the expanded plan's strongly connected components
 * (Tarjan) make a DAG; a component that is a loop and calls the tool makes its count unbounded, naming the loop;
 * otherwise the heaviest path through the DAG — each call weighing one, or its {@code for_each}'s elements — is
 * the count, and its calls are the path the policy names.
 */
final class Counts {

    /** The count of one tool, and the calls on the path that makes it. */
    record Result(Reach.Count count, List<Reach.Site> path) {}

    private final SuperGraph graph;
    private final boolean[] reachable;
    private final int[] component;
    private final List<List<SuperGraph.Node>> components = new ArrayList<>();
    private final boolean[] cyclic;
    private final Map<String, Result> results = new LinkedHashMap<>();
    /** The reachable nodes of each tool ({@link #key}), in expansion order. */
    private final Map<String, List<SuperGraph.Node>> sitesByTool = new HashMap<>();

    Counts(SuperGraph graph, boolean[] reachable) {
        this.graph = graph;
        this.reachable = reachable;
        this.component = new int[graph.nodes.size()];
        java.util.Arrays.fill(component, -1);
        tarjan();
        this.cyclic = new boolean[components.size()];
        for (int c = 0; c < components.size(); c++) {
            List<SuperGraph.Node> members = components.get(c);
            cyclic[c] = members.size() > 1 || members.get(0).out.stream().anyMatch(e -> e.to() == members.get(0));
        }
        for (SuperGraph.Node node : graph.nodes) {
            String key = component[node.id] >= 0 ? key(node) : null;
            if (key != null) {
                sitesByTool.computeIfAbsent(key, k -> new ArrayList<>()).add(node);
            }
        }
    }

    /** The tool a node calls, for counting: a call's canonical name, {@link Reach#CONDITION} for an LLM-decided jump. */
    static String key(SuperGraph.Node node) {
        if (node.isCall()) {
            return node.fact.canonicalName();
        }
        if (node.instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition) {
            return Reach.CONDITION;
        }
        return null;
    }

    /** How many calls {@code node} makes each time a run passes it. */
    static Reach.Count weight(SuperGraph.Node node) {
        return node.isCall() ? node.factor : node.scope.factor;
    }

    /** The count of {@code tool} ({@link #key}). */
    Result of(String tool) {
        return results.computeIfAbsent(tool, this::count);
    }

    private Result count(String tool) {
        List<SuperGraph.Node> sites = sitesByTool.getOrDefault(tool, List.of());
        if (sites.isEmpty()) {
            return new Result(Reach.Count.ZERO, List.of());
        }
        Map<Integer, Reach.Count> weight = new HashMap<>();
        int hi = -1;
        int lo = Integer.MAX_VALUE;
        for (SuperGraph.Node node : sites) {
            int c = component[node.id];
            if (cyclic[c]) {
                List<Reach.Site> loop = cycle(node);
                return new Result(new Reach.Count(0, 0, loop), loop);
            }
            weight.merge(c, weight(node), Reach.Count::plus);
            hi = Math.max(hi, c);
            lo = Math.min(lo, c);
        }
        if (sites.size() == 1) {
            return new Result(weight(sites.get(0)), List.of(sites.get(0).site));
        }
        // Tarjan numbers components sinks first: walk from the first site's component down to the last one's; a
        // component above hi weighs nothing on the way, one below lo adds nothing.
        Map<Integer, Reach.Count> best = new HashMap<>();
        Map<Integer, Integer> from = new HashMap<>();
        Reach.Count most = Reach.Count.ZERO;
        int end = -1;
        for (int c = hi; c >= lo; c--) {
            Reach.Count before = Reach.Count.ZERO;
            for (int p : predecessors(c)) {
                Reach.Count known = best.get(p);
                if (known != null && heavier(known, before)) {
                    before = known;
                    from.put(c, p);
                }
            }
            Reach.Count here = before.plus(weight.getOrDefault(c, Reach.Count.ZERO));
            if (here.atMost() > 0) {
                best.put(c, here);
            }
            if (end < 0 || heavier(here, most)) {
                most = here;
                end = c;
            }
        }
        List<Reach.Site> path = new ArrayList<>();
        for (Integer c = end; c != null; c = from.get(c)) {
            for (SuperGraph.Node node : components.get(c)) {
                if (tool.equals(key(node))) {
                    path.add(0, node.site);
                }
            }
        }
        return new Result(most, path);
    }

    private static boolean heavier(Reach.Count a, Reach.Count b) {
        return a.atMost() > b.atMost() || (a.atMost() == b.atMost() && a.calls() > b.calls());
    }

    private final Map<Integer, int[]> predecessorCache = new HashMap<>();

    private int[] predecessors(int c) {
        return predecessorCache.computeIfAbsent(c, k -> {
            BitSet preds = new BitSet();
            for (SuperGraph.Node node : components.get(k)) {
                for (SuperGraph.Edge edge : node.in) {
                    int p = component[edge.from().id];
                    if (p >= 0 && p != k) {
                        preds.set(p);
                    }
                }
            }
            return preds.stream().toArray();
        });
    }

    /** One cycle through {@code node} inside its component: its sites, the first repeated at the end. */
    private List<Reach.Site> cycle(SuperGraph.Node node) {
        int c = component[node.id];
        Map<SuperGraph.Node, SuperGraph.Node> parent = new HashMap<>();
        ArrayDeque<SuperGraph.Node> work = new ArrayDeque<>();
        for (SuperGraph.Edge edge : node.out) {
            if (component[edge.to().id] == c && !parent.containsKey(edge.to())) {
                parent.put(edge.to(), node);
                work.add(edge.to());
            }
        }
        while (!work.isEmpty()) {
            SuperGraph.Node at = work.poll();
            if (at == node) {
                break;
            }
            for (SuperGraph.Edge edge : at.out) {
                if (component[edge.to().id] == c && !parent.containsKey(edge.to())) {
                    parent.put(edge.to(), at);
                    work.add(edge.to());
                }
            }
        }
        List<Reach.Site> sites = new ArrayList<>();
        SuperGraph.Node at = node;
        do {
            if (!at.isReturn) {
                sites.add(0, at.site);
            }
            at = parent.get(at);
        } while (at != null && at != node);
        sites.add(0, node.site);
        return SuperGraph.shorten(sites);
    }

    /** Tarjan's algorithm over the reachable nodes, iteratively (plans can be long). */
    private void tarjan() {
        int size = graph.nodes.size();
        int[] index = new int[size];
        int[] low = new int[size];
        java.util.Arrays.fill(index, -1);
        boolean[] onStack = new boolean[size];
        ArrayDeque<SuperGraph.Node> stack = new ArrayDeque<>();
        ArrayDeque<int[]> calls = new ArrayDeque<>(); // {node id, next edge}
        int counter = 0;
        SuperGraph.Node start = graph.start();
        calls.push(new int[] {start.id, 0});
        index[start.id] = low[start.id] = counter++;
        stack.push(start);
        onStack[start.id] = true;
        while (!calls.isEmpty()) {
            int[] frame = calls.peek();
            SuperGraph.Node node = graph.nodes.get(frame[0]);
            if (frame[1] < node.out.size()) {
                SuperGraph.Node next = node.out.get(frame[1]++).to();
                if (!reachable[next.id]) {
                    continue;
                }
                if (index[next.id] < 0) {
                    index[next.id] = low[next.id] = counter++;
                    stack.push(next);
                    onStack[next.id] = true;
                    calls.push(new int[] {next.id, 0});
                } else if (onStack[next.id]) {
                    low[node.id] = Math.min(low[node.id], index[next.id]);
                }
                continue;
            }
            calls.pop();
            if (!calls.isEmpty()) {
                int caller = calls.peek()[0];
                low[caller] = Math.min(low[caller], low[node.id]);
            }
            if (low[node.id] == index[node.id]) {
                List<SuperGraph.Node> members = new ArrayList<>();
                SuperGraph.Node member;
                do {
                    member = stack.pop();
                    onStack[member.id] = false;
                    component[member.id] = components.size();
                    members.add(member);
                } while (member != node);
                components.add(members);
            }
        }
    }
}
