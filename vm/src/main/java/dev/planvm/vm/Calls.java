package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;

/** How a step reaches the outside world: tool calls and LLM conditions. */
interface Calls {

    JsonNode callTool(String tool, JsonNode params, CallContext context);

    ConditionResult evaluateCondition(String prompt, JsonNode context, CallContext call);
}
