package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.CallAnswer;
import dev.planvm.temporal.contract.ConditionRequest;
import dev.planvm.temporal.contract.PlanActivities;
import dev.planvm.temporal.contract.ToolCallRequest;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.call.Call;
import io.temporal.activity.Activity;

/**
 * The activities of a worker: each call is one attempt through the worker's own call chain, with
 * the secret references of its params resolved from the secrets this worker holds.
 */
public final class PlanActivitiesImpl implements PlanActivities {

    private final CallAttempts attempts;
    private final SecretReferences secrets;
    private final ToolCatalog catalog;

    PlanActivitiesImpl(CallAttempts attempts, SecretReferences secrets, ToolCatalog catalog) {
        this.attempts = attempts;
        this.secrets = secrets;
        this.catalog = catalog;
    }

    @Override
    public CallAnswer callTool(ToolCallRequest request) {
        return attempts.attempt(
                Activity.getExecutionContext(),
                () -> new Call.ToolCall(
                        request.tool(),
                        secrets.resolve(request.params()),
                        new CallContext(
                                request.seqNo(),
                                request.expectedKeys(),
                                null,
                                request.settings().timeout())),
                request.settings());
    }

    @Override
    public CallAnswer evaluateCondition(ConditionRequest request) {
        return attempts.attempt(
                Activity.getExecutionContext(),
                () -> new Call.ConditionCall(
                        secrets.resolve(request.prompt()),
                        secrets.resolve(request.context()),
                        CallContext.of(request.seqNo())),
                request.settings());
    }

    @Override
    public ToolCatalog describeTools() {
        return catalog;
    }
}
