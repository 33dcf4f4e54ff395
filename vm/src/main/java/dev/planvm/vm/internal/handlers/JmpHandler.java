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
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepContext;
import dev.planvm.vm.run.StepFailure;
import java.util.Locale;
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
        return jmp.branch() instanceof Jmp.LlmCondition c
                ? Optional.of(call(jmp, c, variables, limits))
                : Optional.empty();
    }

    /**
     * The condition as the evaluator gets it: the prompt as text (other JSON rendered, within the
     * string limit), the context as JSON (within the limits of one variable).
     */
    private static Call.ConditionCall call(Jmp jmp, Jmp.LlmCondition c, Variables variables, RunLimits limits) {
        JsonNode prompt = Interpolator.interpolate(c.prompt(), variables, limits.maxStringLength());
        JsonNode context = c.context() == null
                ? NullNode.getInstance()
                : Interpolator.interpolate(c.context(), variables, limits.maxStringLength());
        limits.checkValue("the context of the condition", context);
        String text = prompt.isTextual() ? prompt.asText() : rendered(prompt, limits.maxStringLength());
        return new Call.ConditionCall(text, context, CallContext.of(jmp.seqNo()));
    }

    /** {@code prompt} rendered as text, refused before rendering when it would be longer than {@code max}. */
    private static String rendered(JsonNode prompt, int max) {
        long length = Interpolator.renderedLength(prompt, max);
        if (length > max) {
            throw new LimitReached("the condition_prompt would be text of more than "
                    + String.format(Locale.ROOT, "%,d", max) + " characters, the limit for one string");
        }
        return Interpolator.render(prompt);
    }

    private static Outcome choose(boolean result, int ifTrue, Integer ifFalse) {
        if (result) {
            return Outcome.jumpTo(ifTrue);
        }
        return ifFalse == null ? Outcome.next() : Outcome.jumpTo(ifFalse);
    }

    private static String describe(JsonNode value) {
        return value.getNodeType().name().toLowerCase() + " " + OutputBinding.shown(value, 60);
    }
}
