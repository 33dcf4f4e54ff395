package dev.planvm.instructions.reach;

import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.OnError;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.ValueTemplate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plan with its plan tools expanded in place: one graph whose nodes are the instructions of the plan and of
 * every plan-tool call's child plan (a copy per call site, so each call is analysed with its own arguments), and
 * whose edges are every way the program counter can move — falling through, jumping (both ways of a condition
 * that is not a constant), a failure handled by {@code on_error}, entering a child plan and returning from it.
 * Each analysis ({@link Flows}, {@link Counts}, {@link Approval}) walks this one graph, so a path may go into a
 * plan tool and out again like any other.
 *
 * <p>A plan tool already being expanded on the way (a plan tool reaching itself, which loading refuses) and any
 * expansion past {@value #MAX_NODES} nodes are not expanded: the call stays one opaque call of unknown effect, and a
 * note says so.
 */
final class SuperGraph {

    /** The most nodes an expansion makes; a larger one leaves the rest of its plan-tool calls unexpanded. */
    static final int MAX_NODES = 20_000;

    /** One copy of a plan: the top plan, or a plan tool's plan entered by one call site. */
    static final class Scope {
        final int id;
        final Plan plan;
        final List<Reach.Frame> via;
        /** The call that enters this copy, or {@code null} for the top plan. */
        final Node caller;
        /** How many times one run of the top plan may run this copy (products of enclosing {@code for_each}es). */
        final Reach.Count factor;

        final Map<String, Integer> vars = new HashMap<>();
        Node[] nodes;

        Scope(int id, Plan plan, List<Reach.Frame> via, Node caller, Reach.Count factor) {
            this.id = id;
            this.plan = plan;
            this.via = via;
            this.caller = caller;
            this.factor = factor;
        }

        /** The variable {@code name} of this copy, or -1 for a date/time helper name no instruction of it assigns. */
        int var(String name) {
            Integer id = vars.get(name);
            return id == null ? -1 : id;
        }
    }

    /** An instruction of one copy, or the return from a plan-tool call's child plan. */
    static final class Node {
        final int id;
        final Scope scope;
        final Instruction instruction;
        /** Whether this is the return from {@link #call}'s child (then {@link #instruction} is that call). */
        final boolean isReturn;

        final Reach.Site site;
        final List<Edge> out = new ArrayList<>();
        final List<Edge> in = new ArrayList<>();
        /** Falls off the end of the top plan: the run ends here. */
        boolean exits;

        /** For a {@code calling}: the tool. */
        ToolFacts.Fact fact;
        /** For a {@code calling}: how many calls one run of the top plan may make from here, loops aside. */
        Reach.Count factor;
        /** For an expanded plan-tool call: the child's copy and the return node. */
        Scope child;

        Node returnNode;
        /** For a return node: the call it returns from. */
        Node call;

        Node(int id, Scope scope, Instruction instruction, boolean isReturn) {
            this.id = id;
            this.scope = scope;
            this.instruction = instruction;
            this.isReturn = isReturn;
            this.site = new Reach.Site(scope.via, instruction.seqNo());
        }

        boolean isCall() {
            return instruction instanceof Calling && !isReturn;
        }

        /** A call of a tool that is not expanded (any tool but an expanded plan tool). */
        boolean isLeafCall() {
            return isCall() && child == null;
        }
    }

    /**
     * A move of the program counter.
     *
     * @param handler {@code null} for a normal move; for a failure that a {@code calling}'s {@code on_error} handles,
     *                that calling (which then sets {@code last_error})
     */
    record Edge(Node from, Node to, Node handler) {}

    final List<Node> nodes = new ArrayList<>();
    final List<Scope> scopes = new ArrayList<>();
    final List<String> varNames = new ArrayList<>();
    final List<String> notes = new ArrayList<>();
    boolean complete = true;
    private final ToolFacts facts;
    private final Map<String, ToolFacts.Fact> factsByName = new HashMap<>();

    private SuperGraph(ToolFacts facts) {
        this.facts = facts;
    }

    /** The expansion of {@code plan}; its start is {@link #start()}. */
    static SuperGraph of(Plan plan, ToolFacts facts) {
        SuperGraph graph = new SuperGraph(facts);
        graph.expand(plan, List.of(), null, Reach.Count.ONE, Set.of());
        return graph;
    }

    Node start() {
        return scopes.get(0).nodes[0];
    }

    Scope top() {
        return scopes.get(0);
    }

    private Scope expand(Plan plan, List<Reach.Frame> via, Node caller, Reach.Count factor, Set<String> stack) {
        Scope scope = new Scope(scopes.size(), plan, via, caller, factor);
        scopes.add(scope);
        List<Instruction> instructions = plan.instructions();
        scope.nodes = new Node[instructions.size()];
        for (int i = 0; i < instructions.size(); i++) {
            scope.nodes[i] = node(scope, instructions.get(i), false);
        }
        declareVariables(scope);
        for (Node node : scope.nodes) {
            if (node.instruction instanceof Calling calling) {
                node.fact = fact(calling.tool());
                node.factor = Multiplier.of(calling.forEach(), scope.factor);
                if (node.fact.isPlanTool()) {
                    expandCall(node, calling, via, stack);
                }
            } else if (node.instruction instanceof Custom) {
                complete = false;
                notes.add(node.site.describe() + ": what a custom instruction ('" + node.instruction.type()
                        + "') reads, writes, calls or jumps to is not known: it is taken to write every variable"
                        + " and to jump anywhere in its plan, and the tools its handler calls are not listed");
            }
        }
        for (int i = 0; i < scope.nodes.length; i++) {
            connect(scope, i);
        }
        return scope;
    }

    private void expandCall(Node node, Calling calling, List<Reach.Frame> via, Set<String> stack) {
        String name = node.fact.canonicalName();
        Plan child = node.fact.plan();
        if (stack.contains(name)) {
            notes.add(node.site.describe() + ": plan tool " + name + " reaches itself; the call is not expanded (a"
                    + " plan tool may not reach itself: loading refuses it)");
            complete = false;
            return;
        }
        if (child.instructions().isEmpty()) {
            return; // a loaded plan has instructions; one built otherwise stays an opaque call
        }
        if (nodes.size() + child.instructions().size() > MAX_NODES) {
            notes.add(node.site.describe() + ": the expansion of plan tools passed " + MAX_NODES
                    + " instructions; the call of plan tool " + name + " is not expanded");
            complete = false;
            return;
        }
        List<Reach.Frame> inner = new ArrayList<>(via);
        inner.add(new Reach.Frame(name, calling.seqNo()));
        Set<String> deeper = new HashSet<>(stack);
        deeper.add(name);
        node.returnNode = node(node.scope, calling, true);
        node.returnNode.call = node;
        node.child = expand(child, List.copyOf(inner), node, node.factor, deeper);
    }

    private ToolFacts.Fact fact(String tool) {
        return factsByName.computeIfAbsent(tool, name -> {
            ToolFacts.Fact fact = facts.fact(name);
            return fact == null ? ToolFacts.Fact.unknown(name) : fact;
        });
    }

    private Node node(Scope scope, Instruction instruction, boolean isReturn) {
        Node node = new Node(nodes.size(), scope, instruction, isReturn);
        nodes.add(node);
        return node;
    }

    /** The variables of a copy: every name its instructions read or write, its inputs, final_answer and last_error. */
    private void declareVariables(Scope scope) {
        Set<String> names = new java.util.LinkedHashSet<>();
        Set<String> written = new HashSet<>();
        names.add("final_answer");
        names.add(OnError.LAST_ERROR);
        scope.plan.signature().ifPresent(s -> names.addAll(s.inputNames()));
        for (Instruction instruction : scope.plan.instructions()) {
            names.addAll(instruction.writes());
            written.addAll(instruction.writes());
            names.addAll(instruction.reads());
            if (instruction instanceof Calling calling && calling.forEach() != null) {
                names.addAll(calling.params().variables()); // bound names too: a read outside the map is a variable
            }
        }
        for (String name : names) {
            if (!written.contains(name) && dev.planvm.instructions.expr.Builtins.isConstant(name)) {
                continue;
            }
            scope.vars.put(name, varNames.size());
            varNames.add(name);
        }
    }

    /** The edges out of the instruction at {@code position} of {@code scope}. */
    private void connect(Scope scope, int position) {
        Node node = scope.nodes[position];
        Instruction instruction = node.instruction;
        Node from = node.child != null ? node.returnNode : node;
        if (node.child != null) {
            edge(node, node.child.nodes[0], null);
        }
        if (instruction instanceof Custom) {
            for (Node target : scope.nodes) {
                edge(from, target, null);
            }
            next(scope, position, from);
            return;
        }
        if (instruction instanceof Jmp jmp) {
            jumps(scope, position, jmp);
            return;
        }
        next(scope, position, from);
        if (instruction instanceof Calling calling && calling.onError() != null) {
            Node target = calling.onError() instanceof OnError.Jump jump
                    ? scope.nodes[scope.plan.positionOf(jump.seqNo())]
                    : null;
            if (target != null) {
                edge(node, target, node);
            }
            if (node.child != null) {
                Node handledAt = target != null ? target : node.returnNode;
                for (Node inner : descendants(node.child)) {
                    edge(inner, handledAt, node);
                }
            }
        }
    }

    private void jumps(Scope scope, int position, Jmp jmp) {
        Node node = scope.nodes[position];
        Boolean constant = constant(jmp.branch());
        List<Integer> targets = jmp.branch().targets();
        if (constant == null || jmp.branch() instanceof Jmp.Unconditional) {
            for (int target : targets) {
                edge(node, scope.nodes[scope.plan.positionOf(target)], null);
            }
            if (jmp.mayFallThrough()) {
                next(scope, position, node);
            }
            return;
        }
        if (constant) {
            edge(node, scope.nodes[scope.plan.positionOf(targets.get(0))], null);
        } else if (targets.size() > 1) {
            edge(node, scope.nodes[scope.plan.positionOf(targets.get(1))], null);
        } else {
            next(scope, position, node);
        }
    }

    /** The value of a local condition written as a constant boolean; {@code null} when it is known only at run time. */
    static Boolean constant(Jmp.Branch branch) {
        if (branch instanceof Jmp.LocalCondition local
                && local.condition() instanceof ValueTemplate.Constant c
                && c.value().isBoolean()) {
            return c.value().booleanValue();
        }
        return null;
    }

    /** Falling through from {@code position}: to the next instruction, or out of the copy. */
    private void next(Scope scope, int position, Node from) {
        if (position + 1 < scope.nodes.length) {
            edge(from, scope.nodes[position + 1], null);
        } else if (scope.caller == null) {
            from.exits = true;
        } else {
            edge(from, scope.caller.returnNode, null);
        }
    }

    /** Every node of {@code scope} and of the copies it enters, return nodes included. */
    List<Node> descendants(Scope scope) {
        List<Node> all = new ArrayList<>();
        for (Node node : scope.nodes) {
            all.add(node);
            if (node.child != null) {
                all.addAll(descendants(node.child));
                all.add(node.returnNode);
            }
        }
        return all;
    }

    private void edge(Node from, Node to, Node handler) {
        for (Edge existing : from.out) {
            if (existing.to() == to && existing.handler() == handler) {
                return;
            }
        }
        Edge edge = new Edge(from, to, handler);
        from.out.add(edge);
        to.in.add(edge);
    }

    /** Which nodes a run can reach from the start. */
    boolean[] reachable() {
        boolean[] seen = new boolean[nodes.size()];
        java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
        work.add(start());
        seen[start().id] = true;
        while (!work.isEmpty()) {
            for (Edge edge : work.poll().out) {
                if (!seen[edge.to().id]) {
                    seen[edge.to().id] = true;
                    work.add(edge.to());
                }
            }
        }
        return seen;
    }

    /** The parents of a breadth-first walk from the start, made on the first {@link #pathTo}. */
    private Node[] parents;

    /**
     * One shortest path of sites from the start to {@code target} (the return nodes left out), shortened as
     * {@link #shorten} says; {@code null} when no run reaches it.
     */
    List<Reach.Site> pathTo(Node target) {
        if (parents == null) {
            parents = new Node[nodes.size()];
            boolean[] seen = new boolean[nodes.size()];
            java.util.ArrayDeque<Node> work = new java.util.ArrayDeque<>();
            work.add(start());
            seen[start().id] = true;
            while (!work.isEmpty()) {
                Node at = work.poll();
                for (Edge edge : at.out) {
                    if (!seen[edge.to().id]) {
                        seen[edge.to().id] = true;
                        parents[edge.to().id] = at;
                        work.add(edge.to());
                    }
                }
            }
        }
        if (target != start() && parents[target.id] == null) {
            return null;
        }
        List<Reach.Site> path = new ArrayList<>();
        for (Node step = target; step != null; step = parents[step.id]) {
            if (!step.isReturn) {
                path.add(step.site);
            }
        }
        java.util.Collections.reverse(path);
        return shorten(path);
    }

    /** The most sites a path or loop lists: a longer one keeps its first and last {@value #PATH_END} sites. */
    static final int PATH_END = 32;

    /** {@code sites}, or its first and last {@value #PATH_END} when it is longer than twice that. */
    static List<Reach.Site> shorten(List<Reach.Site> sites) {
        if (sites.size() <= 2 * PATH_END) {
            return sites;
        }
        List<Reach.Site> kept = new ArrayList<>(sites.subList(0, PATH_END));
        kept.addAll(sites.subList(sites.size() - PATH_END, sites.size()));
        return kept;
    }
}
