package dev.planvm.instructions;

import dev.planvm.instructions.expr.Builtins;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Def-use over the jump graph: warns on a read of a variable that some path from the first
 * instruction reaches without assigning it first, naming one such path.
 *
 * <p>The analysis is the classic "definitely assigned" data flow: a variable is assigned on entry
 * to an instruction when every path from the start assigns it (the run's inputs count as assigned
 * at the start); an instruction reads before it writes, and an {@code assign} sees only the keys
 * before the one being evaluated (P7). Reads of variables no instruction assigns are not reported
 * here: they are the plan's inputs, which {@link PlanAnalyzer} reports on its own. A plan with a
 * custom instruction type is skipped, since what its handler writes is not known statically.
 */
final class DefUse {

    /** One instruction: where it is, what it reads (each variable with the first pointer reading it), what it writes. */
    record Node(Instruction instruction, Map<String, String> reads, List<String> writes) {}

    private final List<Node> nodes;
    private final Map<Integer, Integer> position = new HashMap<>();
    private final List<List<Integer>> successors = new ArrayList<>();

    private DefUse(List<Node> nodes) {
        this.nodes = nodes;
        for (int i = 0; i < nodes.size(); i++) {
            position.put(nodes.get(i).instruction().seqNo(), i);
        }
        for (int i = 0; i < nodes.size(); i++) {
            List<Integer> next = new ArrayList<>();
            Instruction instruction = nodes.get(i).instruction();
            if (instruction.mayFallThrough() && i + 1 < nodes.size()) {
                next.add(i + 1);
            }
            for (int target : instruction.jumpTargets()) {
                Integer at = position.get(target);
                if (at != null && !next.contains(at)) {
                    next.add(at);
                }
            }
            successors.add(next);
        }
    }

    /**
     * Appends a warning for each (instruction, variable) whose read some path reaches unassigned.
     *
     * @param nodes    the instructions in {@code seq_no} order
     * @param assigned every variable some instruction assigns
     * @param inputs   the variables the run is given
     */
    static void check(List<Node> nodes, Set<String> assigned, Set<String> inputs, List<Diagnostic> out) {
        if (nodes.isEmpty() || nodes.stream().anyMatch(n -> n.instruction() instanceof Custom)) {
            return;
        }
        new DefUse(nodes).report(assigned, inputs, out);
    }

    private void report(Set<String> assigned, Set<String> inputs, List<Diagnostic> out) {
        List<String> names = new ArrayList<>(assigned);
        names.removeAll(inputs);
        names.removeIf(Builtins::isConstant);
        if (names.isEmpty()) {
            return;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        BitSet[] in = definitelyAssigned(index);
        for (int i = 0; i < nodes.size(); i++) {
            if (in[i] == null) {
                continue; // unreachable: reported elsewhere
            }
            Node node = nodes.get(i);
            for (Map.Entry<String, String> read : node.reads().entrySet()) {
                Integer variable = index.get(read.getKey());
                if (variable == null || in[i].get(variable)) {
                    continue;
                }
                out.add(Diagnostic.warning(
                        node.instruction().seqNo(), read.getValue(), message(read.getKey(), i, node)));
            }
        }
    }

    /** For each reachable instruction, the variables every path from the start assigns before it; null if unreachable. */
    private BitSet[] definitelyAssigned(Map<String, Integer> index) {
        int count = index.size();
        BitSet[] gen = new BitSet[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            gen[i] = new BitSet(count);
            for (String name : nodes.get(i).writes()) {
                Integer v = index.get(name);
                if (v != null) {
                    gen[i].set(v);
                }
            }
        }
        BitSet[] in = new BitSet[nodes.size()];
        in[0] = new BitSet(count);
        Deque<Integer> work = new ArrayDeque<>(List.of(0));
        while (!work.isEmpty()) {
            int at = work.pop();
            BitSet outSet = (BitSet) in[at].clone();
            outSet.or(gen[at]);
            for (int next : successors.get(at)) {
                if (next == 0) {
                    continue; // the start is entered with nothing assigned, whatever jumps back to it
                }
                BitSet before = in[next];
                BitSet after;
                if (before == null) {
                    after = (BitSet) outSet.clone();
                } else {
                    after = (BitSet) before.clone();
                    after.and(outSet);
                }
                if (!after.equals(before)) {
                    in[next] = after;
                    work.push(next);
                }
            }
        }
        return in;
    }

    private String message(String name, int at, Node node) {
        String reference = "${" + name + "} reads '" + name + "'";
        if (node.writes().contains(name)) {
            if (node.instruction() instanceof Assign) {
                return reference + " before this assign sets it (an assign sees only the keys before the one it"
                        + " evaluates)" + pathClause(name, at);
            }
            return reference + " before this step sets it" + pathClause(name, at);
        }
        return reference + ", which is not assigned on every path that reaches here" + pathClause(name, at);
    }

    private String pathClause(String name, int at) {
        List<Integer> path = path(name, at);
        if (path == null) {
            return "";
        }
        List<Integer> setters = new ArrayList<>();
        for (Node node : nodes) {
            if (node.writes().contains(name) && node != nodes.get(at)) {
                setters.add(node.instruction().seqNo());
            }
        }
        String where = setters.isEmpty()
                ? ""
                : " (" + (setters.size() == 1 ? "seq_no " : "seq_nos ") + join(setters, ", ") + " assign"
                        + (setters.size() == 1 ? "s" : "") + " it)";
        return ": the path " + join(path, " → ") + " reaches it unassigned" + where;
    }

    /** One shortest path of seq_nos from the start to {@code at} through no instruction that writes {@code name}. */
    private List<Integer> path(String name, int at) {
        Map<Integer, Integer> parent = new LinkedHashMap<>();
        Deque<Integer> queue = new ArrayDeque<>(List.of(0));
        Set<Integer> seen = new HashSet<>(List.of(0));
        while (!queue.isEmpty()) {
            int node = queue.poll();
            if (node == at) {
                List<Integer> path = new ArrayList<>();
                for (Integer step = node; step != null; step = parent.get(step)) {
                    path.add(0, nodes.get(step).instruction().seqNo());
                }
                return path;
            }
            if (nodes.get(node).writes().contains(name)) {
                continue;
            }
            for (int next : successors.get(node)) {
                if (seen.add(next)) {
                    parent.put(next, node);
                    queue.add(next);
                }
            }
        }
        return null;
    }

    private static String join(List<Integer> seqNos, String separator) {
        StringJoiner joiner = new StringJoiner(separator);
        int shown = seqNos.size() <= 12 ? seqNos.size() : 5;
        for (int i = 0; i < shown; i++) {
            joiner.add(String.valueOf(seqNos.get(i)));
        }
        if (shown < seqNos.size()) {
            joiner.add("… (" + (seqNos.size() - 10) + " more)");
            for (int i = seqNos.size() - 5; i < seqNos.size(); i++) {
                joiner.add(String.valueOf(seqNos.get(i)));
            }
        }
        return joiner.toString();
    }
}
