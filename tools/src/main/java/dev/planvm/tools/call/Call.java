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
        return withContext(context().withEvents(events));
    }

    /** The same call in {@code context} (e.g. with the attempt's timeout). */
    default Call withContext(CallContext context) {
        if (this instanceof ToolCall tool) {
            return new ToolCall(tool.tool(), tool.params(), context, tool.canonical());
        }
        ConditionCall condition = (ConditionCall) this;
        return new ConditionCall(condition.prompt(), condition.conditionContext(), context);
    }

    /**
     * {@code calling}: a tool by name with its params.
     *
     * @param tool      the tool's name as the plan spelled it (what cassettes, traces and approvals record)
     * @param canonical the tool's one canonical name ({@link dev.planvm.tools.Tool#canonicalName()}), which
     *                  every rule matches; the chain's first link sets it ({@link #named}), until then it is
     *                  {@code tool}. Not part of what makes two calls the same: it follows from {@code tool}.
     */
    record ToolCall(String tool, JsonNode params, CallContext context, String canonical) implements Call {
        public ToolCall {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(params, "params");
            Objects.requireNonNull(context, "context");
            canonical = canonical == null ? tool : canonical;
        }

        /** A call whose canonical name is not known yet (the chain's first link finds it). */
        public ToolCall(String tool, JsonNode params, CallContext context) {
            this(tool, params, context, tool);
        }

        /** This call with its tool's canonical name. */
        public ToolCall named(String canonicalName) {
            return new ToolCall(tool, params, context, canonicalName);
        }

        /** This call with other params (e.g. redacted), the same names and context. */
        public ToolCall withParams(JsonNode other) {
            return new ToolCall(tool, other, context, canonical);
        }

        @Override
        public String describe() {
            return "tool '" + tool + "'";
        }

        /** Same spelled tool, params and context (the canonical name follows from the tool). */
        @Override
        public boolean equals(Object o) {
            return o instanceof ToolCall other
                    && tool.equals(other.tool)
                    && params.equals(other.params)
                    && context.equals(other.context);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tool, params, context);
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
