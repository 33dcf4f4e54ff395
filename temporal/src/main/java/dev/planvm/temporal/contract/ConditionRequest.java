package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;

/**
 * One {@code condition_prompt}, as an activity input.
 *
 * @param context the interpolated {@code context}, JSON null when absent
 */
public record ConditionRequest(String prompt, JsonNode context, int seqNo, CallSettings settings) {
    public ConditionRequest {
        Objects.requireNonNull(prompt, "prompt");
        context = context == null ? NullNode.getInstance() : context;
        Objects.requireNonNull(settings, "settings");
    }
}
