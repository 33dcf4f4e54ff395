package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A running plan workflow as its query answers: its plan, mode, and the trace entry of every
 * committed step so far (secrets redacted).
 *
 * @param status {@code running} until the run ends, then its status
 */
public record PlanProgress(String status, String source, String digest, String mode, int stepCount,
                           List<JsonNode> steps) {
    public PlanProgress {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }
}
