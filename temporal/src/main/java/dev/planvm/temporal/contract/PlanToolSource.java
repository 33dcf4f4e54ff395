package dev.planvm.temporal.contract;

import java.util.Objects;

/**
 * A plan tool a run may call, as its {@link PlanRequest} carries it: the submitting side sends the
 * plan-tool plans with the plan, so a worker needs no files. A call of the tool runs its plan as a
 * child workflow.
 *
 * @param source what the plan tool is called in messages (its file name)
 * @param plan   the plan document (StackVM JSON in its object form: {@code {"name": ..., "inputs": {...},
 *               "plan": [...]}})
 */
public record PlanToolSource(String source, String plan) {
    public PlanToolSource {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(plan, "plan");
    }
}
