package dev.planvm.vm;

import dev.planvm.instructions.Instruction;

/**
 * Executes one instruction type. Looked up by the instruction's {@code type}; reads and writes
 * variables through the {@link StepContext} and returns what happens next. Throw
 * {@link StepFailure} (or let an evaluation or tool error through) to fail the step; the VM adds
 * the {@code seq_no} and type to the message.
 *
 * @param <I> the instruction record this handler executes
 */
@FunctionalInterface
public interface InstructionHandler<I extends Instruction> {
    Outcome execute(I instruction, StepContext step);
}
