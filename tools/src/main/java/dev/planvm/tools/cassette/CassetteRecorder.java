package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Redactor;

/**
 * Record: passes every call on and records what came back, with how long it took, into a
 * {@link Recording}. Only answered calls are recorded (a failed call has no output to replay).
 * Thread-safe; interactions are kept in the order their calls were answered.
 */
public final class CassetteRecorder implements CallInterceptor {

    private final Recording recording;
    private final Redactor redactor;

    /** A recorder into {@code recording} that keeps secrets out of it (see {@link Redactor}). */
    public CassetteRecorder(Recording recording, Redactor redactor) {
        this.recording = recording;
        this.redactor = redactor;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        long start = System.nanoTime();
        JsonNode output = chain.proceed(call);
        long durationMs = (System.nanoTime() - start) / 1_000_000;
        Interaction interaction;
        if (call instanceof Call.ToolCall tool) {
            interaction = new Interaction.ToolInteraction(tool.tool(), redactor.redact(tool.params()), redactor.redact(output),
                    durationMs);
        } else {
            Call.ConditionCall condition = (Call.ConditionCall) call;
            ConditionResult result = ConditionResult.fromJson(output);
            interaction = new Interaction.ConditionInteraction(redactor.redact(condition.prompt()),
                    redactor.redact(condition.conditionContext()), result.result(), redactor.redact(result.explanation()),
                    durationMs);
        }
        recording.add(interaction);
        return output;
    }
}
