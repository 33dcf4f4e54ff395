package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * The {@code on_error} of a {@code calling} instruction (a planvm extension): what the step does when
 * its call fails for good (after the tool's retries) instead of failing the run. Either way the step
 * also sets {@link #LAST_ERROR} to {@code {"seq_no", "tool", "kind", "message"}}. Failures that protect
 * the machine (memory, steps, the run store) are never handled: they always stop the run.
 */
public sealed interface OnError {

    /** The variable a handled failure is described in. */
    String LAST_ERROR = "last_error";

    /** {@code {"value": V}}: bind V to the step's {@code output_vars}, as the tool's output would be, and go on. */
    record Value(JsonNode value) implements OnError {
        public Value {
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code {"jump": SEQ}}: continue at {@code seq_no} SEQ; the {@code output_vars} are not written. */
    record Jump(int seqNo) implements OnError {}

    /** {@code value} or {@code jump}: how the trace says a failure was handled. */
    default String label() {
        return this instanceof Value ? "value" : "jump";
    }
}
