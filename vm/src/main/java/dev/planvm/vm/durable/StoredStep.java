package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.call.Call;
import java.util.List;
import java.util.Objects;

/**
 * One committed step as the store keeps it.
 *
 * @param index        1, 2, ... in execution order
 * @param outcome      what the handler said happens next: {@code next}, {@code jump} or {@code halt}
 * @param nextPosition where execution went on after it (an index into the plan's instructions)
 * @param writes       variables it set
 * @param calls        the calls it made through the call chain, typed (tool and params, or condition
 *                     prompt and context), in order
 * @param trace        its trace entry
 * @param session      1 for the first process, 2 for the first resume, ...
 */
public record StoredStep(
        int index,
        int seqNo,
        String type,
        String outcome,
        int nextPosition,
        JsonNode writes,
        List<Call> calls,
        JsonNode trace,
        int session,
        String committedAt) {
    public StoredStep {
        Objects.requireNonNull(outcome, "outcome");
        calls = List.copyOf(calls);
    }
}
