package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.expr.ValueTemplate;
import dev.planvm.instructions.expr.Variables;
import dev.planvm.tools.call.Call;
import java.util.ArrayList;
import java.util.List;

/**
 * What a handler may do during one step: read and write variables, interpolate templates, make
 * calls through the run's call chain. Everything it does is recorded for listeners, the trace and
 * the run store. One context per step, used on the run's thread only.
 */
public interface StepContext {

    Instruction instruction();

    default int seqNo() {
        return instruction().seqNo();
    }

    /** Read-only view of the variables (for the expression evaluator). */
    Variables variables();

    /** The run's limits (string length, value size and depth). */
    RunLimits limits();

    /** Interpolates a template over the current variables (DESIGN P5), within the run's {@link RunLimits}. */
    JsonNode interpolate(ValueTemplate template);

    /** Sets a variable, recorded as a write of this step; a value over the {@link RunLimits} is a {@link StepFailure}. */
    void set(String name, JsonNode value);

    /** Records a resolved input of this step for the trace. */
    void recordInput(String name, JsonNode value);

    /** Records why a condition went the way it did. */
    void explain(String explanation);

    /**
     * Makes {@code call} through the run's call chain and returns its answer (for a condition, the
     * JSON form of a {@code ConditionResult}). The answer may come from the same call started ahead
     * of its turn. In a dry run it is a placeholder (the step's inputs say {@code "placeholder":
     * true}); when attempts failed and were retried, they are recorded as the input
     * {@code attempts}. A failure is a {@link dev.planvm.tools.ToolException}.
     */
    JsonNode call(Call call);

    /**
     * Makes each of {@code calls} through the run's call chain, several at a time (up to the run's
     * in-flight cap; a sequential run makes them one by one), and returns what each came to, in the
     * order of {@code calls}, once every call has settled: each is its own call (trace, span,
     * cassette interaction). A failed call does not stop the others. The default makes them one by
     * one with {@link #call}.
     */
    default List<Settled> callEach(List<? extends Call> calls) {
        List<Settled> settled = new ArrayList<>(calls.size());
        for (Call call : calls) {
            try {
                settled.add(Settled.answered(call(call)));
            } catch (RuntimeException e) {
                settled.add(Settled.failed(e));
            }
        }
        return settled;
    }

    /** What one of {@link #callEach} came to: its answer, or what it failed with. */
    record Settled(JsonNode answer, RuntimeException failure) {
        public static Settled answered(JsonNode answer) {
            return new Settled(answer, null);
        }

        public static Settled failed(RuntimeException failure) {
            return new Settled(null, failure);
        }

        public boolean ok() {
            return failure == null;
        }
    }
}
