package dev.planvm.vm.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.Checkpoint;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run as the store keeps it: its plan, inputs, status and committed steps.
 *
 * @param status   {@code running} (in progress, or the process died), {@code succeeded} or {@code failed}
 * @param sessions processes that worked on it (1 + resumes)
 */
public record StoredRun(String id, String planSource, String planDigest, JsonNode plan, Map<String, JsonNode> inputs,
                        String mode, String status, String parentRun, Integer fromSeq, String startedAt,
                        String finishedAt, int sessions, JsonNode finalAnswer, JsonNode error, List<StoredStep> steps) {

    public StoredRun {
        inputs = Map.copyOf(inputs);
        steps = List.copyOf(steps);
    }

    /** Where a resume continues: after the last committed step, with every variable it left. */
    public Checkpoint checkpoint() {
        return new Checkpoint(steps.isEmpty() ? 0 : steps.get(steps.size() - 1).nextPosition(), steps.size(),
                variablesAfter(steps, inputs));
    }

    /**
     * The variables after the given committed steps, starting from {@code inputs}: each step's
     * writes applied in execution order.
     */
    public static Map<String, JsonNode> variablesAfter(List<StoredStep> steps, Map<String, JsonNode> inputs) {
        Map<String, JsonNode> variables = new LinkedHashMap<>(inputs);
        for (StoredStep step : steps) {
            for (Iterator<Map.Entry<String, JsonNode>> it = step.writes().fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> write = it.next();
                variables.put(write.getKey(), write.getValue());
            }
        }
        return variables;
    }
}
