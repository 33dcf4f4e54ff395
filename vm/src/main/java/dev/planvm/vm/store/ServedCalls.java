package dev.planvm.vm.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.chain.Call;
import java.util.ArrayList;
import java.util.List;

/** The calls that committed steps made, read back from their trace entries. */
public final class ServedCalls {

    private ServedCalls() {
    }

    /** Tool calls ({@code inputs.tool}, {@code inputs.params}) and LLM conditions ({@code inputs.condition_prompt}). */
    public static List<Call> of(List<StoredStep> steps) {
        List<Call> calls = new ArrayList<>();
        for (StoredStep step : steps) {
            JsonNode inputs = step.trace().path("inputs");
            CallContext context = CallContext.of(step.seqNo());
            if (inputs.has("tool") && inputs.has("params")) {
                calls.add(new Call.ToolCall(inputs.get("tool").asText(), inputs.get("params"), context));
            } else if (inputs.path("condition_prompt").isTextual()) {
                JsonNode conditionContext = inputs.has("context") ? inputs.get("context") : NullNode.getInstance();
                calls.add(new Call.ConditionCall(inputs.get("condition_prompt").asText(), conditionContext, context));
            }
        }
        return calls;
    }
}
