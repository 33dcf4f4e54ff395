package dev.planvm.vm.plantools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.run.RunOptions;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where a VM's plan-tool calls run their child runs when not on the VM itself
 * ({@link dev.planvm.vm.PlanVmBuilder#childRunner}): a Temporal workflow runs each as a child workflow.
 * The call is checked as locally first — the tool policy and approvals of the parent, the params against
 * the plan tool's {@code inputs}, the child plan against the VM ({@link ParentRun#problems}) — and the
 * child's {@code final_answer} is checked against {@code output} after; the runner only runs the child.
 */
public interface ChildRunner {

    /**
     * The id the child of {@code call} will have (the trace names it in the call's entry); asked once per
     * call, just before {@link #run}.
     */
    String childId(PlanTool tool, Call.ToolCall call);

    /**
     * Runs {@code tool}'s plan as child {@code childId} with these variables and the parent's options (tool
     * policy, clock, step limit); a recording child's interactions go to {@code recorded}.
     *
     * @return the child's result, or why it could not run
     */
    ChildRuns.Outcome run(
            String childId,
            PlanTool tool,
            Map<String, JsonNode> inputs,
            Call.ToolCall call,
            RunOptions options,
            Consumer<List<Interaction>> recorded);
}
