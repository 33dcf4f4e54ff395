package dev.planvm.vm.internal.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Assign;
import dev.planvm.instructions.expr.Interpolator;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepContext;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;

/** DESIGN P7: each key is assigned in document order, so a later key sees an earlier one. */
public final class AssignHandler implements InstructionHandler<Assign> {

    @Override
    public Outcome execute(Assign assign, StepContext step) {
        evaluate(assign, step.variables(), step.limits(), step::set);
        return Outcome.next();
    }

    /**
     * Evaluates the values in document order, each seeing the ones before it, and hands each to
     * {@code set} as soon as it is known (the step sets it; the scheduler forwards it ahead of commit).
     */
    public static void evaluate(
            Assign assign, Variables variables, RunLimits limits, BiConsumer<String, JsonNode> set) {
        Map<String, JsonNode> done = new HashMap<>();
        Variables view =
                Variables.over(variables, name -> done.containsKey(name) ? done.get(name) : variables.get(name));
        for (Map.Entry<String, ValueTemplate> entry : assign.values().entrySet()) {
            JsonNode value = Interpolator.interpolate(entry.getValue(), view, limits.maxStringLength());
            set.accept(entry.getKey(), value);
            done.put(entry.getKey(), value);
        }
    }
}
