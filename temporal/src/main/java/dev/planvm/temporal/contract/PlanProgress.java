package dev.planvm.temporal.contract;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A running plan workflow as its query answers: its plan, mode, how many steps it committed, and
 * the trace entries of the last 200 of them (secrets appear as references).
 *
 * @param status    {@code running} until the run ends, then its status
 * @param stepCount steps committed so far
 */
public record PlanProgress(
        String status, String source, String digest, String mode, int stepCount, List<JsonNode> steps) {
    public PlanProgress {
        steps = steps == null ? List.of() : List.copyOf(steps);
    }
}
