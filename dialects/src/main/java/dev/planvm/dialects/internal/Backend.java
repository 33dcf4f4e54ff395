package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.planvm.dialects.internal.Program.AliasDef;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part both dialects share: resolve every alias, keep those on a reference chain from the
 * result, refuse cycles, order them so each comes after what it reads, and emit StackVM JSON
 * through the {@link Emitter}. The order is a depth-first walk from the result that visits
 * references in source order, so the independent calls of a plan are neighbours in one basic block
 * and the VM's dataflow scheduler runs them at once.
 */
public final class Backend {

    /** The plan variable the result is stored in (DESIGN P11). */
    public static final String FINAL_ANSWER = dev.planvm.instructions.Plan.FINAL_ANSWER;

    /**
     * The plan variable that, {@code true}, hands the result back to the LLM that wrote the plan (seed 001's
     * {@code use}); an alias of that name is held in another variable, so only {@code use EXPR;} sets it.
     */
    public static final String USE = dev.planvm.instructions.Plan.USE;

    /**
     * How names resolve and how big the output may be.
     *
     * @param tools           tools callable by identifier; null: any unknown function is a tool
     * @param toolsCalled     whether expressions may call tools (the JavaScript subset)
     * @param inputs          names the run provides as variables
     * @param guardPrototypeNames refuse JavaScript object internals as property names
     * @param maxInstructions the most instructions the plan may compile to
     */
    public record Settings(
            Set<String> tools,
            boolean toolsCalled,
            Set<String> inputs,
            boolean guardPrototypeNames,
            int maxInstructions) {}

    /**
     * The compiled plan.
     *
     * @param plan        the StackVM JSON array
     * @param lineOfSeqNo the source line each instruction came from
     */
    public record Output(ArrayNode plan, Map<Integer, Integer> lineOfSeqNo) {}

    private record Resolved(AliasDef def, String variable, Ast body, Set<String> reads) {}

    private Backend() {}

    /** The plan, or null when {@code problems} has errors (every problem found is reported). */
    public static Output compile(Program program, Settings settings, Problems problems) {
        Map<String, String> variables = new LinkedHashMap<>();
        Set<String> reserved = new HashSet<>(settings.inputs());
        reserved.add(FINAL_ANSWER);
        reserved.add(USE);
        reserved.addAll(
                dev.planvm.instructions.expr.Builtins.CONSTANTS); // a temporary named "now" would hide the helper
        program.aliases().forEach(a -> reserved.add(a.name()));
        Names names = new Names(reserved);
        for (AliasDef alias : program.aliases()) {
            String name = alias.name();
            variables.put(name, name.equals(FINAL_ANSWER) || name.equals(USE) ? names.fresh(name + "_alias") : name);
        }
        if (program.resultIsAlias()) {
            variables.put(program.result().name(), FINAL_ANSWER);
        }
        Bindings bindings = Bindings.of(variables, settings.inputs(), settings.tools(), settings.toolsCalled());
        Resolver resolver = new Resolver(bindings, problems, settings.guardPrototypeNames());

        Map<String, Resolved> resolved = new LinkedHashMap<>();
        for (AliasDef alias : program.aliases()) {
            Set<String> reads = new LinkedHashSet<>();
            Ast body = resolver.resolve(alias.body(), reads);
            resolved.put(alias.name(), new Resolved(alias, variables.get(alias.name()), body, reads));
        }
        Set<String> resultReads = new LinkedHashSet<>();
        Ast resultBody = resolver.resolve(program.result().body(), resultReads);
        Resolved result = new Resolved(program.result(), FINAL_ANSWER, resultBody, resultReads);
        if (program.resultIsAlias()) {
            resolved.put(program.result().name(), result);
        }

        List<Resolved> order = order(result, resolved, problems);
        Set<Resolved> used = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        used.addAll(order);
        for (Resolved r : resolved.values()) {
            if (r != result && !used.contains(r) && !problems.hasErrors()) {
                problems.warning(
                        r.def().pos(),
                        "alias '" + r.def().name() + "' is never used by the result: it is"
                                + " not compiled, so it never runs");
            }
        }
        if (problems.hasErrors()) {
            return null;
        }
        Emitter emitter = new Emitter(names, settings.maxInstructions());
        for (Resolved r : order) {
            String label = r == result ? "the result" : "alias '" + r.def().name() + "'";
            if (!emitter.alias(r.variable(), r.body(), r.def().pos(), label)) {
                problems.error(
                        r.def().pos(),
                        "the plan compiles to more than " + settings.maxInstructions() + " instructions");
                return null;
            }
        }
        if (program.use() && !emitter.handBack(program.result().pos())) {
            problems.error(
                    program.result().pos(),
                    "the plan compiles to more than " + settings.maxInstructions() + " instructions");
            return null;
        }
        return new Output(emitter.plan(), emitter.lines());
    }

    /**
     * The aliases the result needs, each after those it reads (the result last); a cycle is an
     * error naming its chain. Iterative, so a long chain of aliases cannot overflow the stack.
     */
    private static List<Resolved> order(Resolved result, Map<String, Resolved> aliases, Problems problems) {
        List<Resolved> order = new ArrayList<>();
        Map<Resolved, Boolean> done = new IdentityHashMap<>(); // false: on the current path, true: emitted
        List<Resolved> path = new ArrayList<>();
        List<List<String>> pending = new ArrayList<>();
        path.add(result);
        pending.add(new ArrayList<>(result.reads()));
        done.put(result, false);
        while (!path.isEmpty()) {
            int top = path.size() - 1;
            List<String> next = pending.get(top);
            if (next.isEmpty()) {
                Resolved finished = path.remove(top);
                pending.remove(top);
                done.put(finished, true);
                order.add(finished);
                continue;
            }
            Resolved dep = aliases.get(next.remove(0));
            if (dep == null) {
                continue;
            }
            Boolean state = done.get(dep);
            if (state == null) {
                done.put(dep, false);
                path.add(dep);
                pending.add(new ArrayList<>(dep.reads()));
            } else if (!state) {
                List<String> chain = new ArrayList<>();
                int from = path.size() - 1;
                while (path.get(from) != dep) {
                    from--;
                }
                for (int i = from; i < path.size(); i++) {
                    chain.add(path.get(i).def().name());
                }
                chain.add(dep.def().name());
                problems.error(
                        dep.def().pos(),
                        "alias '" + dep.def().name() + "' depends on itself: " + String.join(" -> ", chain));
            }
        }
        return order;
    }
}
