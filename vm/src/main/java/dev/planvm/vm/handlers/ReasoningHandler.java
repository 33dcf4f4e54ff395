package dev.planvm.vm.handlers;

import dev.planvm.instructions.Reasoning;
import dev.planvm.vm.InstructionHandler;
import dev.planvm.vm.Outcome;
import dev.planvm.vm.StepContext;

/** DESIGN P10: no effect on variables; the parameters are kept in the trace. */
final class ReasoningHandler implements InstructionHandler<Reasoning> {
    @Override
    public Outcome execute(Reasoning reasoning, StepContext step) {
        step.recordInput("parameters", reasoning.parameters());
        return Outcome.next();
    }
}
