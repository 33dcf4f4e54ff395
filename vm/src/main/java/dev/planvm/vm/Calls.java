package dev.planvm.vm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteRecorder;
import dev.planvm.tools.chain.AttemptLog;
import dev.planvm.tools.chain.FailedAttempt;
import dev.planvm.tools.chain.Call;
import dev.planvm.tools.chain.CallChain;
import dev.planvm.tools.chain.Conditions;
import java.util.List;

/**
 * How a run's steps reach the outside world: every tool call and LLM condition goes through the
 * run's {@link CallChain}.
 */
final class Calls {

    private final CallChain chain;
    private final CassetteRecorder recorder;
    private final boolean placeholders;
    private final AttemptLog attempts;
    private Speculator speculator;

    /**
     * @param recorder     the run's recorder, or {@code null}
     * @param placeholders whether answers are dry-run placeholders (marked in the trace)
     * @param attempts     collects failed attempts for the trace (a listener of {@code chain}), or {@code null}
     */
    Calls(CallChain chain, CassetteRecorder recorder, boolean placeholders, AttemptLog attempts) {
        this.chain = chain;
        this.recorder = recorder;
        this.placeholders = placeholders;
        this.attempts = attempts;
    }

    /** Lets calls started ahead of their turn answer when their turn comes. */
    void speculateWith(Speculator speculator) {
        this.speculator = speculator;
    }

    CallChain chain() {
        return chain;
    }

    JsonNode callTool(String tool, JsonNode params, CallContext context, StepContext step) {
        return execute(new Call.ToolCall(tool, params, context), step);
    }

    ConditionResult evaluateCondition(String prompt, JsonNode context, CallContext call, StepContext step) {
        return Conditions.fromJson(execute(new Call.ConditionCall(prompt, context, call), step));
    }

    /** Makes the call; when some attempts of it failed, {@code step} records them as its input {@code attempts}. */
    private JsonNode execute(Call call, StepContext step) {
        try {
            return speculator == null ? chain.execute(call) : speculator.atTurn(call.context().seqNo(), call);
        } finally {
            if (attempts != null) {
                List<FailedAttempt> failed = attempts.take(call);
                if (!failed.isEmpty()) {
                    step.recordInput("attempts", FailedAttempt.toJson(failed));
                }
            }
        }
    }

    boolean placeholders() {
        return placeholders;
    }

    /** What was recorded, or {@code null} when the run does not record. */
    Cassette recording() {
        return recorder == null ? null : recorder.cassette();
    }
}
