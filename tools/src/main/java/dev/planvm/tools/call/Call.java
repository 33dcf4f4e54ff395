package dev.planvm.tools.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.CallEvents;
import java.util.Objects;

/**
 * One request that passes through the {@link dev.planvm.tools.chain.CallChain}: a tool call or an LLM condition. Both
 * carry plan-level values after interpolation (never a prompt a tool builds internally), which is
 * what cassettes match on.
 */
public sealed interface Call permits Call.ToolCall, Call.ConditionCall {

    CallContext context();

    /** A short description for messages: {@code tool 'vector_search'} or {@code condition}. */
    String describe();

    /** The same call reporting to {@code events} (equal to this one: events are not compared). */
    default Call withEvents(CallEvents events) {
        CallContext reporting = context().withEvents(events);
        if (this instanceof ToolCall tool) {
            return new ToolCall(tool.tool(), tool.params(), reporting);
        }
        ConditionCall condition = (ConditionCall) this;
        return new ConditionCall(condition.prompt(), condition.conditionContext(), reporting);
    }

    /** {@code calling}: a tool by name with its params. */
    record ToolCall(String tool, JsonNode params, CallContext context) implements Call {
        public ToolCall {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(context, "context");
        }

        @Override
        public String describe() {
            return "tool '" + tool + "'";
        }
    }

    /**
     * {@code jmp} with {@code condition_prompt}: answered by a JSON object
     * {@code {"result": boolean, "explanation": string}}.
     *
     * @param conditionContext the interpolated {@code context}, JSON null when absent
     */
    record ConditionCall(String prompt, JsonNode conditionContext, CallContext context) implements Call {
        public ConditionCall {
            Objects.requireNonNull(prompt, "prompt");
            Objects.requireNonNull(conditionContext, "conditionContext");
            Objects.requireNonNull(context, "context");
        }

        @Override
        public String describe() {
            return "condition";
        }
    }
}
