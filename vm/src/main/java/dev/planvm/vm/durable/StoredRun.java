package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A run as the store keeps it: its plan, inputs, status and committed steps.
 *
 * @param status    {@link RunStatus#RUNNING} (in progress, or the process died), succeeded, completed_with_failures
 *                  (it went on past failed steps to its end), failed, or
 *                  {@link RunStatus#WAITING} (a call waits for a reviewer's approval)
 * @param sessions  processes that worked on it (1 + resumes)
 * @param options   what the run was started with beyond the VM's settings (they apply again on resume),
 *                  its clock included ({@code null} in a store of an earlier version)
 * @param approvals the calls that waited for approval and what was decided, in the order they were asked
 * @param sourceLines a compiled dialect plan's source line of each {@code seq_no}; empty for a JSON plan
 */
public record StoredRun(
        String id,
        String planSource,
        String planDigest,
        JsonNode plan,
        Map<String, JsonNode> inputs,
        String mode,
        RunStatus status,
        String parentRun,
        Integer fromSeq,
        String startedAt,
        String finishedAt,
        int sessions,
        JsonNode finalAnswer,
        JsonNode error,
        List<StoredStep> steps,
        RunOptions options,
        List<StoredApproval> approvals,
        Map<Integer, Integer> sourceLines) {

    public StoredRun {
        sourceLines = Map.copyOf(sourceLines);
        inputs = Map.copyOf(inputs);
        steps = List.copyOf(steps);
        Objects.requireNonNull(options, "options");
        approvals = List.copyOf(approvals);
    }

    /**
     * The call this run waits to have approved (no decision yet), if any: of {@link #pendingApprovals}, the first — the
     * one every view (the run's message, {@code planvm show}, the HTTP API, the run browser) names.
     */
    public Optional<StoredApproval> pendingApproval() {
        return pendingApprovals().stream().findFirst();
    }

    /**
     * The calls this run waits to have approved: those with no decision yet of the step the run is at (its committed
     * steps + 1), in element order — one for a plain call, one per element that waits for a {@code for_each} step. A
     * call asked at a step the run left (it failed there, then went on) is not one.
     */
    public List<StoredApproval> pendingApprovals() {
        int step = steps.size() + 1;
        return approvals.stream()
                .filter(a -> a.pending() && a.stepIndex() == step)
                .toList();
    }

    /**
     * Whether the run succeeded and its plan ended in seed 001's {@code use}: its committed steps left the variable
     * {@link Plan#USE} {@code true}, so its {@link #finalAnswer} goes back to the LLM that wrote the plan (as {@link
     * dev.planvm.vm.run.RunResult#handsBack} says of a session).
     */
    public boolean handsBack() {
        if (status != RunStatus.SUCCEEDED) {
            return false;
        }
        JsonNode use = variablesAfter(steps, inputs).get(Plan.USE);
        return use != null && use.isBoolean() && use.booleanValue();
    }

    /** Where a resume continues: after the last committed step, with every variable it left. */
    public Checkpoint checkpoint() {
        return new Checkpoint(
                steps.isEmpty() ? 0 : steps.get(steps.size() - 1).nextPosition(),
                steps.size(),
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
