package dev.planvm.vm.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.instructions.Jmp;
import dev.planvm.tools.ConditionResult;
import dev.planvm.vm.InstructionHandler;
import dev.planvm.vm.Outcome;
import dev.planvm.vm.StepContext;
import dev.planvm.vm.StepFailure;
import dev.planvm.vm.expr.Interpolator;

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
        JsonNode prompt = step.interpolate(c.prompt());
        JsonNode context = c.context() == null ? NullNode.getInstance() : step.interpolate(c.context());
        step.recordInput("condition_prompt", prompt);
        step.recordInput("context", context);
        ConditionResult result = step.evaluateCondition(promptText(prompt), context);
        return choose(result.result(), c.ifTrue(), c.ifFalse());
    }

    /** The prompt as the condition evaluator gets it: text as is, other JSON rendered. */
    static String promptText(JsonNode prompt) {
        return prompt.isTextual() ? prompt.asText() : Interpolator.render(prompt);
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
