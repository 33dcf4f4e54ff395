package dev.planvm.tools;

import java.util.Objects;

/** The answer to a condition: which way to jump, and why (kept in the trace). */
public record ConditionResult(boolean result, String explanation) {
    public ConditionResult {
        Objects.requireNonNull(explanation, "explanation");
    }
}
