package dev.planvm.vm.handlers;

import dev.planvm.instructions.Assign;
import dev.planvm.vm.InstructionHandler;
import dev.planvm.vm.Outcome;
import dev.planvm.vm.StepContext;

/** DESIGN P7: each key is assigned in document order, so a later key sees an earlier one. */
final class AssignHandler implements InstructionHandler<Assign> {
    @Override
    public Outcome execute(Assign assign, StepContext step) {
        assign.values().forEach((name, template) -> step.set(name, step.interpolate(template)));
        return Outcome.next();
    }
}
