package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.approval.InputRequest;
import java.util.Objects;

/**
 * A {@code human_input} call of a stored run, and the answer it got. Each element of a {@code for_each} step asks its
 * own question (its own rendered prompt) and takes its own answer.
 *
 * @param stepIndex  the index of the step that makes the call (its committed predecessors + 1)
 * @param element    the call's index in its {@code for_each} list, or {@link CallContext#NO_ELEMENT}
 * @param params     the call's interpolated params ({@code prompt}, {@code schema}, {@code choices}), secrets redacted
 * @param answer     the answer, or {@code null} while nobody has answered
 * @param answeredAt when it was answered, or {@code null}
 */
public record StoredInput(
        int stepIndex,
        int seqNo,
        int element,
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

    /** Whether the call is one element of a {@code for_each} step. */
    public boolean isElement() {
        return element != CallContext.NO_ELEMENT;
    }

    /**
     * The id an answer names the call by: {@code step-N}, N its {@link #stepIndex}; {@code step-N-element-K} for
     * element K of a {@code for_each} step.
     */
    public String callId() {
        return "step-" + stepIndex + (isElement() ? "-element-" + element : "");
    }

    /** What the person is asked. */
    public InputRequest request() {
        return InputRequest.of(params);
    }
}
