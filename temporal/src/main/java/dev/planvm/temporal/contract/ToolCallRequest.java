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
 * @param slots        the params are seed 000's slots ({@code "slots": true} on the calling): the worker fits
 *                     them to the tool's params schema ({@link dev.planvm.tools.CallContext#slots()}); absent
 *                     (false) in requests of workflows that do not know it
 */
public record ToolCallRequest(
        String tool,
        JsonNode params,
        int seqNo,
        List<String> expectedKeys,
        CallSettings settings,
        @JsonInclude(JsonInclude.Include.NON_NULL) String traceparent,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean slots) {
    public ToolCallRequest {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        expectedKeys = expectedKeys == null ? List.of() : List.copyOf(expectedKeys);
        Objects.requireNonNull(settings, "settings");
    }

    /** A call whose params are not slots. */
    public ToolCallRequest(
            String tool,
            JsonNode params,
            int seqNo,
            List<String> expectedKeys,
            CallSettings settings,
            String traceparent) {
        this(tool, params, seqNo, expectedKeys, settings, traceparent, false);
    }

    /** A call without trace context. */
    public ToolCallRequest(String tool, JsonNode params, int seqNo, List<String> expectedKeys, CallSettings settings) {
        this(tool, params, seqNo, expectedKeys, settings, null, false);
    }
}
