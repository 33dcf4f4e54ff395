package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.knowledge.spi.LlmJson;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.vm.PlanVm;
import java.util.List;

/**
 * The knowledge graph's extraction LLM as a call of {@code llm_generate} through a VM's call chain
 * (params {@code prompt} and {@code context}, the expected keys asking for JSON), so extraction calls
 * are permission-checked, retried, recorded and replayed like a plan's.
 */
final class ChainLlm implements LlmJson {

    private final CallChain chain;

    ChainLlm(CallChain chain) {
        this.chain = chain;
    }

    @Override
    public JsonNode generate(String prompt, String context, List<String> keys) {
        JsonNode params =
                JsonNodeFactory.instance.objectNode().put("prompt", prompt).put("context", context);
        return chain.execute(new Call.ToolCall(PlanVm.LLM_TOOL, params, new CallContext(0, keys)));
    }
}
