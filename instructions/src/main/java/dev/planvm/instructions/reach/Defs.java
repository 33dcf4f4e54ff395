package dev.planvm.instructions.reach;

import dev.planvm.instructions.Assign;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Custom;
import dev.planvm.instructions.OnError;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * What each move of the program counter writes, as definitions: variable := the sources of these variables plus
 * these sources. An {@code assign} defines its keys in order; a call defines its {@code output_vars} (and
 * {@code last_error} when its {@code on_error} may set it) from its own output and from its params — a tool's output
 * can carry what it was given (an LLM can repeat its prompt), so it keeps their sources; entering an expanded plan
 * tool binds the child's variables to the params; returning from it defines the call's {@code output_vars} from the
 * child's {@code final_answer}; a failure an {@code on_error.jump} handles defines only {@code last_error}.
 */
final class Defs {

    /**
     * One definition.
     *
     * @param var     the variable written
     * @param reads   the variables whose sources flow into it
     * @param origins the sources it adds itself
     * @param kill    whether it replaces the variable's sources (false: it may or may not be written)
     */
    record Def(int var, int[] reads, BitSet origins, boolean kill) {}

    private final Origins origins;
    private final List<List<Def>> normal = new ArrayList<>();
    private final int[] originOf;

    Defs(SuperGraph graph, Origins origins) {
        this.origins = origins;
        this.originOf = new int[graph.nodes.size()];
        for (SuperGraph.Node node : graph.nodes) {
            originOf[node.id] = originId(node);
        }
        for (SuperGraph.Node node : graph.nodes) {
            normal.add(normal(node));
        }
    }

    /** The source a call (or a custom instruction) produces; -1 for other nodes. */
    int origin(SuperGraph.Node node) {
        return originOf[node.id];
    }

    /** What moving along {@code edge} writes, in order. */
    List<Def> along(SuperGraph.Edge edge) {
        if (edge.handler() == null) {
            return normal.get(edge.from().id);
        }
        SuperGraph.Node handler = edge.handler();
        Calling calling = (Calling) handler.instruction;
        if (!(calling.onError() instanceof OnError.Jump)) {
            return List.of(); // on_error.value: the return node writes the fallback
        }
        TemplateReads reads = callReads(handler);
        int lastError = handler.scope.var(OnError.LAST_ERROR);
        return List.of(new Def(lastError, reads.vars(), bits(origin(handler)), true));
    }

    /** What the params of a call read, all together, its {@code for_each} list included. */
    static TemplateReads callReads(SuperGraph.Node node) {
        Calling calling = (Calling) node.instruction;
        TemplateReads reads = TemplateReads.of(calling.params(), node.scope, calling.forEach());
        if (calling.forEach() != null) {
            reads = reads.and(TemplateReads.of(calling.forEach().list(), node.scope, null));
        }
        return reads;
    }

    private int originId(SuperGraph.Node node) {
        if (node.instruction instanceof Custom) {
            return origins.id(new Reach.Origin(Reach.Kind.UNKNOWN, node.instruction.type(), node.site));
        }
        if (!(node.instruction instanceof Calling) || node.isReturn) {
            return -1;
        }
        String tool = node.fact.canonicalName();
        Reach.Kind kind = PlanReach.LLM_TOOL.equals(tool) ? Reach.Kind.LLM : Reach.Kind.TOOL;
        return origins.id(new Reach.Origin(kind, tool, node.site));
    }

    private List<Def> normal(SuperGraph.Node node) {
        List<Def> defs = new ArrayList<>();
        if (node.instruction instanceof Assign assign) {
            assign.values().forEach((key, value) -> {
                TemplateReads reads = TemplateReads.of(value, node.scope, null);
                defs.add(new Def(node.scope.var(key), reads.vars(), reads.literal() ? literal() : new BitSet(), true));
            });
        } else if (node.instruction instanceof Custom) {
            node.scope.vars.values().forEach(var -> defs.add(new Def(var, new int[0], bits(origin(node)), false)));
        } else if (node.instruction instanceof Calling calling) {
            if (node.isReturn) {
                returned(node, calling, defs);
            } else if (node.child != null) {
                entered(node, calling, defs);
            } else {
                called(node, calling, defs);
            }
        }
        return List.copyOf(defs);
    }

    /** A call answered here: its outputs from its output and params. */
    private void called(SuperGraph.Node node, Calling calling, List<Def> defs) {
        TemplateReads reads = callReads(node);
        BitSet output = bits(origin(node));
        if (reads.literal() || calling.onError() instanceof OnError.Value) {
            output.set(Origins.LITERAL);
        }
        for (String name : calling.outputVars().names()) {
            defs.add(new Def(node.scope.var(name), reads.vars(), output, true));
        }
        if (calling.onError() instanceof OnError.Value) {
            defs.add(new Def(node.scope.var(OnError.LAST_ERROR), reads.vars(), bits(origin(node)), false));
        }
    }

    /** Entering a plan tool's child: its variables are the params (or their defaults), nothing else. */
    private void entered(SuperGraph.Node node, Calling calling, List<Def> defs) {
        Map<String, TemplateReads> params = TemplateReads.params(calling.params(), node.scope, calling.forEach());
        TemplateReads whole = params.get("*");
        var defaults = node.child
                .plan
                .signature()
                .map(s -> s.inputs() == null ? null : s.inputs().path("properties"))
                .orElse(null);
        node.child.vars.forEach((name, var) -> {
            TemplateReads given = whole != null ? whole : params.get(name);
            if (given != null) {
                defs.add(new Def(var, given.vars(), given.literal() ? literal() : new BitSet(), true));
            } else if (defaults != null && defaults.path(name).has("default")) {
                defs.add(new Def(var, new int[0], literal(), true));
            } else {
                defs.add(new Def(var, new int[0], new BitSet(), true));
            }
        });
    }

    /** Returning from a plan tool's child: the outputs from its final_answer. */
    private void returned(SuperGraph.Node node, Calling calling, List<Def> defs) {
        SuperGraph.Node call = node.call;
        int[] answer = {call.child.var("final_answer")};
        BitSet output = bits(origin(call));
        if (calling.onError() instanceof OnError.Value) {
            output.set(Origins.LITERAL);
        }
        for (String name : calling.outputVars().names()) {
            defs.add(new Def(node.scope.var(name), answer, output, true));
        }
        if (calling.onError() instanceof OnError.Value) {
            defs.add(new Def(node.scope.var(OnError.LAST_ERROR), new int[0], bits(origin(call)), false));
        }
    }

    /** The reads of each param of a call or an LLM condition, by param name. */
    static Map<String, TemplateReads> sinkParams(SuperGraph.Node node) {
        if (node.instruction instanceof Calling calling) {
            return TemplateReads.params(calling.params(), node.scope, calling.forEach());
        }
        var condition =
                (dev.planvm.instructions.Jmp.LlmCondition) ((dev.planvm.instructions.Jmp) node.instruction).branch();
        Map<String, TemplateReads> params = new java.util.LinkedHashMap<>();
        params.put("prompt", TemplateReads.of(condition.prompt(), node.scope, null));
        if (condition.context() != null) {
            params.put("context", TemplateReads.of(condition.context(), node.scope, null));
        }
        return params;
    }

    private static BitSet literal() {
        return bits(Origins.LITERAL);
    }

    private static BitSet bits(int id) {
        BitSet set = new BitSet();
        if (id >= 0) {
            set.set(id);
        }
        return set;
    }
}
