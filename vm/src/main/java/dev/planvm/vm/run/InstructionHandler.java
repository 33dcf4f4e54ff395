package dev.planvm.vm.run;

import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.call.Call;
import java.util.Optional;

/**
 * Executes one type of instruction. Handlers never move the program counter themselves: they
 * return what happens next. A handler is stateless and shared by every run.
 *
 * <p>A handler whose instruction calls out computes that call in {@link #callFor} and uses it in
 * {@link #execute} ({@code step.call(callFor(...))}): the VM uses the same method to start the call
 * ahead of the instruction's turn, so the early call is always the very one the instruction makes.
 */
public interface InstructionHandler<I extends Instruction> {

    Outcome execute(I instruction, StepContext step);

    /**
     * The call {@code instruction} makes when run over {@code variables} within {@code limits}, or
     * empty when it makes none. Throws what interpolation throws (the instruction then fails at its
     * turn, exactly as in a sequential run). The default: no call.
     */
    default Optional<Call> callFor(I instruction, Variables variables, RunLimits limits) {
        return Optional.empty();
    }
}
