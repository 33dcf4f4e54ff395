package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteRecorder;
import dev.planvm.tools.chain.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.Conditions;

/**
 * How a run's steps reach the outside world: every tool call and LLM condition goes through the
 * run's {@link CallChain}.
 */
final class Calls {

    private final CallChain chain;
    private final CassetteRecorder recorder;
    private final boolean placeholders;
    private Speculator speculator;

    /**
     * @param recorder     the run's recorder, or {@code null}
     * @param placeholders whether answers are dry-run placeholders (marked in the trace)
     */
    Calls(CallChain chain, CassetteRecorder recorder, boolean placeholders) {
        this.chain = chain;
        this.recorder = recorder;
        this.placeholders = placeholders;
    }

    /** Lets calls started ahead of their turn answer when their turn comes. */
    void speculateWith(Speculator speculator) {
        this.speculator = speculator;
    }

    CallChain chain() {
        return chain;
    }

    JsonNode callTool(String tool, JsonNode params, CallContext context) {
        return execute(new Call.ToolCall(tool, params, context));
    }

    ConditionResult evaluateCondition(String prompt, JsonNode context, CallContext call) {
        return Conditions.fromJson(execute(new Call.ConditionCall(prompt, context, call)));
    }

    private JsonNode execute(Call call) {
        return speculator == null ? chain.execute(call) : speculator.atTurn(call.context().seqNo(), call);
    }

    boolean placeholders() {
        return placeholders;
    }

    /** What was recorded, or {@code null} when the run does not record. */
    Cassette recording() {
        return recorder == null ? null : recorder.cassette();
    }
}
