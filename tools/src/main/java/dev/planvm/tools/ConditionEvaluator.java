package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Decides a {@code jmp} with a {@code condition_prompt} (DESIGN P8). The LLM implementation asks a
 * chat model for {@code {"result": boolean, "explanation": string}}; tests use scripted ones.
 * Implementations must be thread-safe and throw {@link ToolException} on failure.
 */
@FunctionalInterface
public interface ConditionEvaluator {

    /**
     * @param prompt  the interpolated {@code condition_prompt}
     * @param context the interpolated {@code context}, or JSON null when absent
     */
    ConditionResult evaluate(String prompt, JsonNode context, CallContext call);
}
