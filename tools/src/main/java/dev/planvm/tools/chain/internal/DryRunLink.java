package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;

/**
 * Dry run: answers every call with a placeholder and calls nothing. A tool call expecting two or
 * more output names gets an object with a placeholder per name; any other gets a text
 * placeholder. Conditions answer a fixed value (false unless configured).
 */
public final class DryRunLink implements CallInterceptor {

    /** Every placeholder text starts with this, so placeholders are easy to spot downstream. */
    public static final String PLACEHOLDER_PREFIX = "<dry-run ";

    private final boolean conditionsAnswer;

    public DryRunLink(boolean conditionsAnswer) {
        this.conditionsAnswer = conditionsAnswer;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        if (call instanceof Call.ConditionCall) {
            return new ConditionResult(conditionsAnswer, "dry run: no LLM was asked").toJson();
        }
        Call.ToolCall toolCall = (Call.ToolCall) call;
        String where = "seq_no " + call.context().seqNo() + " " + toolCall.tool();
        if (call.context().expectedKeys().size() < 2) {
            return TextNode.valueOf(PLACEHOLDER_PREFIX + where + ">");
        }
        ObjectNode placeholder = JsonNodeFactory.instance.objectNode();
        for (String key : call.context().expectedKeys()) {
            placeholder.put(key, PLACEHOLDER_PREFIX + where + "." + key + ">");
        }
        return placeholder;
    }
}
