package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.chain.Call;
import dev.planvm.tools.chain.CallInterceptor;
import dev.planvm.tools.chain.Conditions;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Redactor;
import java.util.ArrayList;
import java.util.List;

/**
 * Record: passes every call on and records what came back, with how long it took. Only answered
 * calls are recorded (a failed call has no output to replay). Thread-safe; interactions are kept in
 * the order their calls were answered.
 */
public final class CassetteRecorder implements CallInterceptor {

    private final List<Interaction> interactions = new ArrayList<>();
    private final Redactor redactor;

    /** A recorder that keeps secrets out of the cassette (see {@link Redactor}). */
    public CassetteRecorder(Redactor redactor) {
        this.redactor = redactor;
    }

    public CassetteRecorder() {
        this(Redactor.none());
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
            ConditionResult result = Conditions.fromJson(output);
            interaction = new Interaction.ConditionInteraction(redactor.redact(condition.prompt()),
                    redactor.redact(condition.conditionContext()), result.result(), redactor.redact(result.explanation()),
                    durationMs);
        }
        synchronized (interactions) {
            interactions.add(interaction);
        }
        return output;
    }

    /** What was recorded so far. */
    public Cassette cassette() {
        synchronized (interactions) {
            return new Cassette(new ArrayList<>(interactions));
        }
    }
}
