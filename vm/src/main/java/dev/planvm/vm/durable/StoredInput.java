package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.approval.InputRequest;
import java.util.Objects;

/**
 * A {@code human_input} call of a stored run, and the answer it got.
 *
 * @param stepIndex  the index of the step that makes the call (its committed predecessors + 1)
 * @param params     the call's interpolated params ({@code prompt}, {@code schema}, {@code choices}), secrets redacted
 * @param answer     the answer, or {@code null} while nobody has answered
 * @param answeredAt when it was answered, or {@code null}
 */
public record StoredInput(
        int stepIndex,
        int seqNo,
        String tool,
        JsonNode params,
        String requestedAt,
        JsonNode answer,
        String answeredAt) {
    public StoredInput {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
    }

    /** Whether nobody has answered yet. */
    public boolean pending() {
        return answer == null;
    }

    /** The id an answer names the call by: {@code step-N}, N its {@link #stepIndex}. */
    public String callId() {
        return "step-" + stepIndex;
    }

    /** What the person is asked. */
    public InputRequest request() {
        return InputRequest.of(params);
    }
}
