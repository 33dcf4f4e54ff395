package dev.planvm.vm.internal.handlers;

import dev.planvm.instructions.Reasoning;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.StepContext;

/** DESIGN P10: no effect on variables; the parameters are kept in the trace. */
final class ReasoningHandler implements InstructionHandler<Reasoning> {
    @Override
    public Outcome execute(Reasoning reasoning, StepContext step) {
        step.recordInput("parameters", reasoning.parameters());
        return Outcome.next();
    }
}
