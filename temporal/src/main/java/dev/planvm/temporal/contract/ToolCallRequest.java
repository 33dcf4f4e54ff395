package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * One tool call, as an activity input. Secrets appear in {@code params} only as references
 * ({@code «secret:NAME»}), which the worker replaces with the values it holds.
 *
 * @param expectedKeys the keys the output must hold (two or more {@code output_vars}), else empty
 */
public record ToolCallRequest(
        String tool, JsonNode params, int seqNo, List<String> expectedKeys, CallSettings settings) {
    public ToolCallRequest {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        expectedKeys = expectedKeys == null ? List.of() : List.copyOf(expectedKeys);
        Objects.requireNonNull(settings, "settings");
    }
}
