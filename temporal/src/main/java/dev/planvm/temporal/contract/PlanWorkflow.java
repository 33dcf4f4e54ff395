package dev.planvm.temporal.contract;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/**
 * The Temporal workflow that runs one plan: planvm's interpreter inside the workflow (it is
 * deterministic given the call answers), each tool call and LLM condition an activity of
 * {@link PlanActivities}. Its workflow type is {@value #TYPE}.
 */
@WorkflowInterface
public interface PlanWorkflow {

    /** The workflow type name, as clients of any language start it. */
    String TYPE = "PlanvmPlan";

    /** Runs the plan to its end; a failed run is a completed workflow whose response says so. */
    @WorkflowMethod(name = TYPE)
    PlanResponse run(PlanRequest request);

    /** The committed steps so far (what {@code planvm show} prints for a running workflow). */
    @QueryMethod(name = "progress")
    PlanProgress progress();
}
