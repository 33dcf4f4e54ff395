package dev.planvm.temporal.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * One {@code condition_prompt}, as an activity input.
 *
 * @param context     the interpolated {@code context}, JSON null when absent
 * @param traceparent the W3C {@code traceparent} of the workflow's span for this call, or {@code null}
 */
public record ConditionRequest(
        String prompt,
        JsonNode context,
        int seqNo,
        CallSettings settings,
        @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent) {
    public ConditionRequest {
        Objects.requireNonNull(prompt, "prompt");
        context = context == null ? NullNode.getInstance() : context;
        Objects.requireNonNull(settings, "settings");
    }

    /** A condition without trace context. */
    public ConditionRequest(String prompt, JsonNode context, int seqNo, CallSettings settings) {
        this(prompt, context, seqNo, settings, null);
    }
}
