package dev.planvm.temporal.contract;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/**
 * What a plan workflow asks workers to do: call a tool, decide an LLM condition, and say which
 * tools a task queue's workers hold. Each call is one attempt of a Temporal activity; planvm's
 * retry policy is the activity's retry options.
 */
@ActivityInterface
public interface PlanActivities {

    /** Calls one tool with params whose secret references the worker resolves. */
    @ActivityMethod(name = "CallTool")
    CallAnswer callTool(ToolCallRequest request);

    /** Decides one {@code condition_prompt}: the output is {@code {"result": boolean, "explanation": string}}. */
    @ActivityMethod(name = "EvaluateCondition")
    CallAnswer evaluateCondition(ConditionRequest request);

    /** The tools this task queue's workers hold, and whether they decide LLM conditions. */
    @ActivityMethod(name = "DescribeTools")
    ToolCatalog describeTools();
}
