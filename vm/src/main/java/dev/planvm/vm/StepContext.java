package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.vm.expr.Interpolator;
import dev.planvm.vm.expr.Variables;
import java.util.List;

/**
 * What a handler may do during one step: read and write variables, interpolate templates, call
 * tools and conditions. Everything it does is recorded for listeners and the trace.
 */
public final class StepContext {

    private final Instruction instruction;
    private final VariableStore variables;
    private final Calls calls;
    private final boolean recording;
    private ObjectNode inputs;
    private ObjectNode writes;
    private String explanation;

    StepContext(Instruction instruction, VariableStore variables, Calls calls, boolean recording) {
        this.instruction = instruction;
        this.variables = variables;
        this.calls = calls;
        this.recording = recording;
    }

    public Instruction instruction() {
        return instruction;
    }

    public int seqNo() {
        return instruction.seqNo();
    }

    /** Read-only view of the variables (for the expression evaluator). */
    public Variables variables() {
        return variables;
    }

    /** Interpolates a template over the current variables (DESIGN P5), within the run's {@link RunLimits}. */
    public JsonNode interpolate(ValueTemplate template) {
        return Interpolator.interpolate(template, variables, variables.limits().maxStringLength());
    }

    /** Sets a variable, recorded as a write of this step. */
    public void set(String name, JsonNode value) {
        variables.set(name, value);
        if (recording) {
            if (writes == null) {
                writes = JsonNodeFactory.instance.objectNode();
            }
            writes.set(name, variables.get(name));
        }
    }

    /** Records a resolved input of this step for the trace. */
    public void recordInput(String name, JsonNode value) {
        if (recording) {
            if (inputs == null) {
                inputs = JsonNodeFactory.instance.objectNode();
            }
            inputs.set(name, value);
        }
    }

    /** Records why a condition went the way it did. */
    public void explain(String explanation) {
        this.explanation = explanation;
    }

    /**
     * Calls a tool through the run's call chain; {@code expectedKeys} are the output names the plan
     * will read from its JSON object output. In a dry run the answer is a placeholder, marked in the trace.
     * When attempts of the call failed and were retried, they are recorded as the input {@code attempts}.
     */
    public JsonNode callTool(String tool, JsonNode params, List<String> expectedKeys) {
        markPlaceholder();
        return calls.callTool(tool, params, new CallContext(seqNo(), expectedKeys), this);
    }

    /** Asks the condition evaluator through the run's call chain; the explanation is recorded. */
    public ConditionResult evaluateCondition(String prompt, JsonNode context) {
        markPlaceholder();
        ConditionResult result = calls.evaluateCondition(prompt, context, CallContext.of(seqNo()), this);
        explain(result.explanation());
        return result;
    }

    private void markPlaceholder() {
        if (calls.placeholders()) {
            recordInput("placeholder", BooleanNode.TRUE);
        }
    }

    ObjectNode inputs() {
        return inputs;
    }

    ObjectNode writes() {
        return writes;
    }

    String explanation() {
        return explanation;
    }
}
