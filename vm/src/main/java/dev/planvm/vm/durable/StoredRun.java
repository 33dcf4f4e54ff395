package dev.planvm.vm.durable;

import dev.planvm.vm.run.RunStatus;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.run.Checkpoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run as the store keeps it: its plan, inputs, status and committed steps.
 *
 * @param status   {@link RunStatus#RUNNING} (in progress, or the process died), succeeded or failed
 * @param sessions processes that worked on it (1 + resumes)
 */
public record StoredRun(String id, String planSource, String planDigest, JsonNode plan, Map<String, JsonNode> inputs,
                        String mode, RunStatus status, String parentRun, Integer fromSeq, String startedAt,
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
            step.writes().properties().forEach(write -> variables.put(write.getKey(), write.getValue()));
        }
        return variables;
    }
}
