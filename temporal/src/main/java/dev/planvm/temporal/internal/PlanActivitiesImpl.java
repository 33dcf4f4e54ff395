package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.CallAnswer;
import dev.planvm.temporal.contract.ConditionRequest;
import dev.planvm.temporal.contract.PlanActivities;
import dev.planvm.temporal.contract.ToolCallRequest;
import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.call.Call;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.temporal.activity.Activity;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.failure.ApplicationFailure;
import java.util.function.Supplier;

/**
 * The activities of a worker: each call is one attempt through the worker's own call chain, with
 * the secret references of its params resolved from the secrets this worker holds. When the worker
 * traces, each attempt is a span, the child of the workflow's span of the call (its input's
 * {@code traceparent}), and current while the call runs (HTTP and MCP tools pass it on).
 */
public final class PlanActivitiesImpl implements PlanActivities {

    private static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    private final CallAttempts attempts;
    private final SecretReferences secrets;
    private final ToolCatalog catalog;
    /** Where attempts send their spans, or {@code null}: no spans. */
    private final Tracer tracer;

    PlanActivitiesImpl(CallAttempts attempts, SecretReferences secrets, ToolCatalog catalog, Tracer tracer) {
        this.attempts = attempts;
        this.secrets = secrets;
        this.catalog = catalog;
        this.tracer = tracer;
    }

    @Override
    public CallAnswer callTool(ToolCallRequest request) {
        ActivityExecutionContext context = Activity.getExecutionContext();
        return traced(
                context,
                "planvm.activity execute_tool " + request.tool(),
                request.traceparent(),
                request.seqNo(),
                request.tool(),
                () -> attempts.attempt(
                        context,
                        () -> new Call.ToolCall(
                                request.tool(),
                                secrets.resolve(request.params()),
                                new CallContext(
                                        request.seqNo(),
                                        request.expectedKeys(),
                                        null,
                                        request.settings().timeout(),
                                        CallContext.NO_ELEMENT,
                                        request.slots())),
                        request.settings()));
    }

    @Override
    public CallAnswer evaluateCondition(ConditionRequest request) {
        ActivityExecutionContext context = Activity.getExecutionContext();
        return traced(
                context,
                "planvm.activity condition",
                request.traceparent(),
                request.seqNo(),
                null,
                () -> attempts.attempt(
                        context,
                        () -> new Call.ConditionCall(
                                secrets.resolve(request.prompt()),
                                secrets.resolve(request.context()),
                                CallContext.of(request.seqNo())),
                        request.settings()));
    }

    /** The attempt, inside its span when the worker traces (a failed attempt's span has status ERROR). */
    @SuppressWarnings("try") // the scope makes the span current while the attempt runs
    private CallAnswer traced(
            ActivityExecutionContext context,
            String name,
            String traceparent,
            int seqNo,
            String tool,
            Supplier<CallAnswer> attempt) {
        if (tracer == null) {
            return attempt.get();
        }
        Span span = TemporalSpans.startActivity(tracer, name, traceparent, seqNo, tool, context.getInfo());
        try (Scope ignored = span.makeCurrent()) {
            return attempt.get();
        } catch (ApplicationFailure failure) { // its message is redacted already
            span.setAttribute(ERROR_TYPE, failure.isNonRetryable() ? "tool_error" : "tool_error_retriable");
            span.setStatus(StatusCode.ERROR, String.valueOf(failure.getOriginalMessage()));
            throw failure;
        } catch (RuntimeException stopped) {
            span.setAttribute(ERROR_TYPE, stopped.getClass().getSimpleName());
            span.setStatus(StatusCode.ERROR);
            throw stopped;
        } finally {
            span.end();
        }
    }

    @Override
    public ToolCatalog describeTools() {
        return catalog;
    }
}
