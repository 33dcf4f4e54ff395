package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.JsonSchemas;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;

/**
 * Last link: the real work. A tool call fits seed 000's slots to the tool's params schema (when the
 * call's params are slots: {@link dev.planvm.tools.CallContext#slots()}), checks the params against
 * the schema and invokes the tool; a condition asks the condition evaluator. A tool that throws something other than a
 * {@link ToolException} fails the call with a non-retriable one (a bug in the tool must not crash
 * the VM).
 */
public final class TerminalLink implements CallInterceptor {

    private final ToolRegistry tools;
    private final ConditionEvaluator conditions;
    private final ParamsCheck paramsCheck;

    /** @param conditions may be {@code null} when no LLM is configured (conditions then fail) */
    public TerminalLink(ToolRegistry tools, ConditionEvaluator conditions, ParamsCheck paramsCheck) {
        this.tools = tools;
        this.conditions = conditions;
        this.paramsCheck = paramsCheck;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        try {
            if (call instanceof Call.ConditionCall condition) {
                if (conditions == null) {
                    throw ToolException.permanent("no condition evaluator is configured");
                }
                return conditions
                        .evaluate(condition.prompt(), condition.conditionContext(), call.context())
                        .toJson();
            }
            Call.ToolCall toolCall = (Call.ToolCall) call;
            Tool tool = tools.find(toolCall.tool())
                    .orElseThrow(() -> ToolException.permanent("tool '" + toolCall.tool() + "' is not installed"));
            JsonNode params = call.context().slots()
                    ? JsonSchemas.fitSlots(toolCall.tool(), tool.paramsSchema(), toolCall.params())
                    : toolCall.params();
            paramsCheck.check(tool, params);
            return tool.invoke(params, call.context());
        } catch (ToolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ToolException(call.describe() + " failed unexpectedly: " + e, false, e);
        }
    }
}
