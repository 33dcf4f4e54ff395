package dev.planvm.temporal.contract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * One tool call, as an activity input. Secrets appear in {@code params} only as references
 * ({@code «secret:NAME»}), which the worker replaces with the values it holds.
 *
 * @param expectedKeys the keys the output must hold (two or more {@code output_vars}), else empty
 * @param traceparent  the W3C {@code traceparent} of the workflow's span for this call (the activity's span is
 *                     its child), or {@code null} when the workflow's worker does not trace
 */
public record ToolCallRequest(
        String tool,
        JsonNode params,
        int seqNo,
        List<String> expectedKeys,
        CallSettings settings,
        @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent) {
    public ToolCallRequest {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        expectedKeys = expectedKeys == null ? List.of() : List.copyOf(expectedKeys);
        Objects.requireNonNull(settings, "settings");
    }

    /** A call without trace context. */
    public ToolCallRequest(String tool, JsonNode params, int seqNo, List<String> expectedKeys, CallSettings settings) {
        this(tool, params, seqNo, expectedKeys, settings, null);
    }
}
