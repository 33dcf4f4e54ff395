package dev.planvm.vm.internal.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.expr.Interpolator;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.InstructionHandler;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepFailure;
import java.util.Optional;

/**
 * DESIGN P8: an unconditional jump; a local {@code condition} (must evaluate to a boolean); or a
 * {@code condition_prompt} decided by the condition evaluator, whose explanation is recorded. A
 * false condition without {@code jump_if_false} falls through.
 */
final class JmpHandler implements InstructionHandler<Jmp> {

    @Override
    public Outcome execute(Jmp jmp, StepContext step) {
        Jmp.Branch branch = jmp.branch();
        if (branch instanceof Jmp.Unconditional u) {
            return Outcome.jumpTo(u.target());
        }
        if (branch instanceof Jmp.LocalCondition c) {
            JsonNode value = step.interpolate(c.condition());
            step.recordInput("condition", value);
            if (!value.isBoolean()) {
                throw new StepFailure("condition must evaluate to true or false, not " + describe(value));
            }
            step.explain("condition is " + value.asBoolean());
            return choose(value.asBoolean(), c.ifTrue(), c.ifFalse());
        }
        Jmp.LlmCondition c = (Jmp.LlmCondition) branch;
        Call.ConditionCall call = call(jmp, c, step.variables(), step.limits());
        step.recordInput("condition_prompt", TextNode.valueOf(call.prompt()));
        step.recordInput("context", call.conditionContext());
        ConditionResult result = ConditionResult.fromJson(step.call(call));
        step.explain(result.explanation());
        return choose(result.result(), c.ifTrue(), c.ifFalse());
    }

    @Override
    public Optional<Call> callFor(Jmp jmp, Variables variables, RunLimits limits) {
        return jmp.branch() instanceof Jmp.LlmCondition c ? Optional.of(call(jmp, c, variables, limits)) : Optional.empty();
    }

    /** The condition as the evaluator gets it: the prompt as text (other JSON rendered), the context as JSON. */
    private static Call.ConditionCall call(Jmp jmp, Jmp.LlmCondition c, Variables variables, RunLimits limits) {
        JsonNode prompt = Interpolator.interpolate(c.prompt(), variables, limits.maxStringLength());
        JsonNode context = c.context() == null ? NullNode.getInstance()
                : Interpolator.interpolate(c.context(), variables, limits.maxStringLength());
        String text = prompt.isTextual() ? prompt.asText() : Interpolator.render(prompt);
        return new Call.ConditionCall(text, context, CallContext.of(jmp.seqNo()));
    }

    private static Outcome choose(boolean result, int ifTrue, Integer ifFalse) {
        if (result) {
            return Outcome.jumpTo(ifTrue);
        }
        return ifFalse == null ? Outcome.next() : Outcome.jumpTo(ifFalse);
    }

    private static String describe(JsonNode value) {
        String text = Interpolator.render(value);
        return value.getNodeType().name().toLowerCase() + " " + (text.length() > 60 ? text.substring(0, 60) + "…" : text);
    }
}
