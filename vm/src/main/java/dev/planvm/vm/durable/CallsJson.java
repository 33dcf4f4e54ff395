package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.call.Call;
import java.util.ArrayList;
import java.util.List;

/**
 * How the store writes the calls of a step: {@code [{"type": "tool", "tool", "params"} |
 * {"type": "condition", "prompt", "context"}]} — the values a cassette matches on.
 */
final class CallsJson {

    private CallsJson() {}

    static ArrayNode write(List<Call> calls) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (Call call : calls) {
            ObjectNode item = array.addObject();
            if (call instanceof Call.ToolCall tool) {
                item.put("type", "tool").put("tool", tool.tool()).set("params", tool.params());
            } else if (call instanceof Call.ConditionCall condition) {
                item.put("type", "condition")
                        .put("prompt", condition.prompt())
                        .set("context", condition.conditionContext());
            }
        }
        return array;
    }

    static List<Call> read(JsonNode array, int seqNo) {
        List<Call> calls = new ArrayList<>();
        if (array == null) {
            return calls;
        }
        CallContext context = CallContext.of(seqNo);
        for (JsonNode item : array) {
            if ("tool".equals(item.path("type").asText())) {
                calls.add(new Call.ToolCall(item.path("tool").asText(), item.path("params"), context));
            } else {
                calls.add(new Call.ConditionCall(item.path("prompt").asText(), item.path("context"), context));
            }
        }
        return calls;
    }
}
