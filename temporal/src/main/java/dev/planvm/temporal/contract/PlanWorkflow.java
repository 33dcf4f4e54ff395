package dev.planvm.temporal.contract;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.UpdateMethod;
import io.temporal.workflow.UpdateValidatorMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;
import java.util.List;

/**
 * The Temporal workflow that runs one plan: planvm's interpreter inside the workflow (it is
 * deterministic given the call answers), each tool call and LLM condition an activity of
 * {@link PlanActivities}. Its workflow type is {@value #TYPE}.
 *
 * <p>A {@code human_input} call waits, durably, for the {@code answer} update: its validator refuses an answer
 * that does not fit the input's {@code schema} or {@code choices} (the update fails with the reason and the
 * workflow keeps waiting); an accepted answer becomes the call's output.
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

    /** The {@code human_input} calls waiting for an answer (none once they are answered). */
    @QueryMethod(name = "inputs")
    List<WaitingInput> inputs();

    /**
     * Answers a waiting {@code human_input} call and lets the run go on.
     *
     * @return the {@code seq_no} of the call answered
     */
    @UpdateMethod(name = "answer")
    int answer(InputAnswer answer);

    /** Refuses an answer no call waits for, or one that does not fit the input (the reason is the message). */
    @UpdateValidatorMethod(updateName = "answer")
    void validateAnswer(InputAnswer answer);
}
