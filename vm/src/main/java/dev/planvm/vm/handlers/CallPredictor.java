package dev.planvm.vm.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.chain.Call;
import dev.planvm.vm.expr.Interpolator;
import dev.planvm.vm.expr.Variables;
import java.util.Map;

/**
 * The call an instruction's handler will make, computed the same way the handler computes it, so
 * the VM can start the call before the instruction's turn and hand the handler the answer then.
 */
public final class CallPredictor {

    private CallPredictor() {
    }

    /** Whether the instruction makes a call through the chain: a {@code calling}, or a {@code condition_prompt} jmp. */
    public static boolean makesCall(Instruction instruction) {
        return instruction instanceof Calling
                || instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition;
    }

    /**
     * The variables a {@code calling} instruction sets from this output (DESIGN P9); throws a
     * {@link dev.planvm.vm.StepFailure} when the output cannot fill them.
     */
    public static Map<String, JsonNode> writes(Calling calling, JsonNode output) {
        return OutputBinding.values(calling.tool(), calling.outputVars(), output);
    }

    /**
     * The call {@code instruction} makes when run with {@code variables}; throws whatever
     * interpolation throws (then the instruction simply runs at its turn and fails there).
     */
    public static Call predict(Instruction instruction, Variables variables) {
        if (instruction instanceof Calling calling) {
            JsonNode params = Interpolator.interpolate(calling.params(), variables);
            return new Call.ToolCall(calling.tool(), params,
                    new CallContext(calling.seqNo(), CallingHandler.expectedKeys(calling.outputVars())));
        }
        Jmp.LlmCondition condition = (Jmp.LlmCondition) ((Jmp) instruction).branch();
        JsonNode prompt = Interpolator.interpolate(condition.prompt(), variables);
        JsonNode context = condition.context() == null ? NullNode.getInstance()
                : Interpolator.interpolate(condition.context(), variables);
        return new Call.ConditionCall(JmpHandler.promptText(prompt), context, CallContext.of(instruction.seqNo()));
    }
}
