package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * The answer of a call, as an activity result: the output (secrets redacted by the worker) and the
 * attempts that failed before it.
 */
public record CallAnswer(JsonNode output, List<AttemptRecord> attempts) {
    public CallAnswer {
        Objects.requireNonNull(output, "output");
        attempts = attempts == null ? List.of() : List.copyOf(attempts);
    }
}
