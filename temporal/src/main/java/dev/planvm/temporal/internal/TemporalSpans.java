package dev.planvm.temporal.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerBuilder;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.temporal.activity.ActivityInfo;
import io.temporal.workflow.unsafe.WorkflowUnsafe;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenTelemetry across Temporal: the workflow's spans (the run's, its steps', its calls') are made only while
 * the workflow runs for the first time, never while it replays, and each activity's input carries the W3C
 * {@code traceparent} of its call's span, under which the worker starts the activity's span. Spans never feed
 * back into the workflow: the ids and clocks they use decide no command, so replays stay deterministic.
 */
final class TemporalSpans {

    static final String INSTRUMENTATION = "dev.planvm.temporal";

    static final AttributeKey<Long> SEQ_NO = AttributeKey.longKey("planvm.call.seq_no");
    static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("planvm.activity.attempt");
    static final AttributeKey<String> WORKFLOW_ID = AttributeKey.stringKey("temporal.workflow.id");
    static final AttributeKey<String> ACTIVITY_ID = AttributeKey.stringKey("temporal.activity.id");

    /** {@code 00-<trace id>-<span id>-<flags>}, lower-case hex. */
    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

    private TemporalSpans() {}

    /** {@code telemetry} for workflow code: its tracers make spans only when the workflow is not replaying. */
    static OpenTelemetry forWorkflow(OpenTelemetry telemetry) {
        TracerProvider provider = new TracerProvider() {
            @Override
            public Tracer get(String name) {
                return new ReplaySafeTracer(telemetry.getTracer(name));
            }

            @Override
            public Tracer get(String name, String version) {
                return new ReplaySafeTracer(telemetry.getTracer(name, version));
            }

            @Override
            public TracerBuilder tracerBuilder(String name) {
                TracerBuilder real = telemetry.tracerBuilder(name);
                return new TracerBuilder() {
                    @Override
                    public TracerBuilder setSchemaUrl(String url) {
                        real.setSchemaUrl(url);
                        return this;
                    }

                    @Override
                    public TracerBuilder setInstrumentationVersion(String version) {
                        real.setInstrumentationVersion(version);
                        return this;
                    }

                    @Override
                    public Tracer build() {
                        return new ReplaySafeTracer(real.build());
                    }
                };
            }
        };
        return new OpenTelemetry() {
            @Override
            public TracerProvider getTracerProvider() {
                return provider;
            }

            @Override
            public ContextPropagators getPropagators() {
                return ContextPropagators.noop();
            }
        };
    }

    /** A replaying workflow gets the no-op tracer (its spans only carry their parent's context on). */
    private record ReplaySafeTracer(Tracer real) implements Tracer {
        @Override
        public SpanBuilder spanBuilder(String name) {
            return WorkflowUnsafe.isReplaying()
                    ? OpenTelemetry.noop().getTracer(INSTRUMENTATION).spanBuilder(name)
                    : real.spanBuilder(name);
        }
    }

    /** The W3C {@code traceparent} of the current span (the workflow's span of the call), or {@code null}. */
    static String traceparent() {
        SpanContext span = Span.current().getSpanContext();
        if (!span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-"
                + span.getTraceFlags().asHex();
    }

    /**
     * Starts the span of one activity attempt on a worker, the child of the workflow's span its input names
     * ({@code traceparent}, else a new trace).
     */
    static Span startActivity(
            Tracer tracer, String name, String traceparent, int seqNo, String tool, ActivityInfo info) {
        Context parent = Context.root();
        Matcher parts = traceparent == null ? null : TRACEPARENT.matcher(traceparent);
        if (parts != null && parts.matches()) {
            SpanContext remote = SpanContext.createFromRemoteParent(
                    parts.group(1), parts.group(2), TraceFlags.fromHex(parts.group(3), 0), TraceState.getDefault());
            if (remote.isValid()) {
                parent = parent.with(Span.wrap(remote));
            }
        }
        SpanBuilder builder = tracer.spanBuilder(name)
                .setParent(parent)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(SEQ_NO, (long) seqNo)
                .setAttribute(ATTEMPT, (long) info.getAttempt())
                .setAttribute(WORKFLOW_ID, info.getWorkflowId())
                .setAttribute(ACTIVITY_ID, info.getActivityId());
        if (tool != null) {
            builder.setAttribute(TOOL, tool);
        }
        return builder.startSpan();
    }
}
