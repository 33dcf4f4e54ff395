package dev.planvm.temporal.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.temporal.contract.AttemptRecord;
import dev.planvm.temporal.contract.CallAnswer;
import dev.planvm.temporal.contract.CallSettings;
import dev.planvm.temporal.contract.ConditionRequest;
import dev.planvm.temporal.contract.PlanActivities;
import dev.planvm.temporal.contract.ToolCallRequest;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.FailedAttempt;
import io.temporal.activity.ActivityOptions;
import io.temporal.api.enums.v1.RetryState;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.failure.CanceledFailure;
import io.temporal.failure.TimeoutFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.function.Function;

/**
 * The workflow's link in the call chain, after the run mode's: it answers every tool call and
 * condition with one activity, whose options carry the call's retry policy (maximum attempts,
 * backoff) and timeouts. The failed attempts the activity reports go to the chain as a local
 * retry link reports them, so the trace lists them the same way. The answers of one run may add
 * up to {@link Deployment#maxAnswerBytes()}, so its history stays within Temporal's limit. Each
 * activity's input carries the W3C {@code traceparent} of the call's span when the run traces.
 */
final class RemoteCalls implements CallInterceptor {

    /** Extra time the server gives an attempt beyond planvm's own timeout, which the worker enforces. */
    private static final Duration TIMEOUT_GRACE = Duration.ofSeconds(10);
    /** The server's limit for an attempt without a planvm timeout (a lost worker is found by its heartbeat). */
    private static final Duration NO_TIMEOUT = Duration.ofDays(1);

    private final Deployment deployment;
    private final Function<Call, CallSettings> settings;
    /** What the answers of this run's calls add up to, as JSON. */
    private long answered;

    /** @param settings the retry policy and timeout of each call (per tool) */
    RemoteCalls(Deployment deployment, Function<Call, CallSettings> settings) {
        this.deployment = deployment;
        this.settings = settings;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        CallSettings callSettings = settings.apply(call);
        CallAnswer answer;
        try {
            if (call instanceof Call.ToolCall tool) {
                answer = stub(deployment.queueOf(tool.tool()), callSettings, tool.describe(), call)
                        .callTool(new ToolCallRequest(
                                tool.tool(),
                                tool.params(),
                                call.context().seqNo(),
                                call.context().expectedKeys(),
                                callSettings,
                                TemporalSpans.traceparent(),
                                call.context().slots()));
            } else {
                Call.ConditionCall condition = (Call.ConditionCall) call;
                answer = stub(deployment.conditionQueue(), callSettings, "condition", call)
                        .evaluateCondition(new ConditionRequest(
                                condition.prompt(),
                                condition.conditionContext(),
                                call.context().seqNo(),
                                callSettings,
                                TemporalSpans.traceparent()));
            }
        } catch (ActivityFailure failure) {
            throw failed(chain, failure, callSettings);
        }
        answer.attempts().forEach(attempt -> chain.attemptFailed(failedAttempt(attempt)));
        answered += Responses.size(answer.output());
        if (answered > deployment.maxAnswerBytes()) {
            throw new ToolException(
                    "the answers of this run's calls add up to more than "
                            + CallAttempts.count(deployment.maxAnswerBytes())
                            + " bytes as JSON, the most one workflow's history"
                            + " may hold (--max-history-bytes); split the plan or have tools return less",
                    false);
        }
        return answer.output();
    }

    private PlanActivities stub(String queue, CallSettings call, String what, Call c) {
        Duration initial = Duration.ofMillis(Math.max(1, call.initialBackoffMs()));
        Duration max = Duration.ofMillis(Math.max(initial.toMillis(), call.maxBackoffMs()));
        ActivityOptions options = ActivityOptions.newBuilder()
                .setTaskQueue(queue)
                .setStartToCloseTimeout(
                        call.timeout() == null ? NO_TIMEOUT : call.timeout().plus(TIMEOUT_GRACE))
                .setHeartbeatTimeout(Duration.ofMillis(deployment.heartbeatTimeoutMs()))
                .setRetryOptions(RetryOptions.newBuilder()
                        .setMaximumAttempts(call.maxAttempts())
                        .setInitialInterval(initial)
                        .setBackoffCoefficient(2.0)
                        .setMaximumInterval(max)
                        .build())
                .setSummary(what + " at seq_no " + c.context().seqNo())
                .build();
        return Workflow.newActivityStub(PlanActivities.class, options);
    }

    /** The call's failure as the chain reports it, its failed attempts told first. */
    private static ToolException failed(Chain chain, ActivityFailure failure, CallSettings call) {
        Throwable cause = failure.getCause();
        if (cause instanceof ApplicationFailure application) {
            AttemptRecord[] attempts = application.getDetails().getSize() == 0
                    ? new AttemptRecord[0]
                    : application.getDetails().get(0, AttemptRecord[].class);
            for (AttemptRecord attempt : attempts) {
                chain.attemptFailed(failedAttempt(attempt));
            }
            return new ToolException(application.getOriginalMessage(), false);
        }
        String message;
        if (cause instanceof TimeoutFailure timeout) {
            message = switch (timeout.getTimeoutType()) {
                case TIMEOUT_TYPE_HEARTBEAT ->
                    "the worker running the call stopped answering (its heartbeat timed out)";
                case TIMEOUT_TYPE_START_TO_CLOSE ->
                    "the call timed out" + (call.timeout() == null ? "" : " after " + seconds(call.timeout()))
                            + " (no answer from its worker)";
                default -> "the call timed out: " + timeout.getOriginalMessage();
            };
        } else if (cause instanceof CanceledFailure) {
            message = "the call was cancelled";
        } else {
            message = cause == null ? failure.getOriginalMessage() : String.valueOf(cause.getMessage());
        }
        if (failure.getRetryState() == RetryState.RETRY_STATE_MAXIMUM_ATTEMPTS_REACHED && call.maxAttempts() > 1) {
            message += " (after " + call.maxAttempts() + " attempts)";
        }
        return new ToolException(message, false);
    }

    private static FailedAttempt failedAttempt(AttemptRecord attempt) {
        return new FailedAttempt(
                attempt.attempt(),
                new ToolException(attempt.error(), true),
                Duration.ofNanos(Math.round(attempt.durationMs() * 1_000_000)),
                attempt.waitedMs() == null ? null : Duration.ofMillis(attempt.waitedMs()));
    }

    static String seconds(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toMillis())
                        .movePointLeft(3)
                        .stripTrailingZeros()
                        .toPlainString() + " s";
    }
}
