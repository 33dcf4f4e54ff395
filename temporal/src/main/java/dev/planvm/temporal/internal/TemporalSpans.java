package dev.planvm.temporal.internal;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    /** On a span that a worker ended because the workflow left it (evicted from its cache, the worker stopping). */
    static final AttributeKey<Boolean> LEFT_WORKER = AttributeKey.booleanKey("planvm.workflow.left_worker");

    /** {@code 00-<trace id>-<span id>-<flags>}, lower-case hex. */
    private static final Pattern TRACEPARENT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");

    private TemporalSpans() {}

    /**
     * {@code telemetry} for the code of one workflow run: its tracers make spans only when the workflow is not
     * replaying, and every span they start is kept in {@code open} until the run ends.
     */
    static OpenTelemetry forWorkflow(OpenTelemetry telemetry, OpenSpans open) {
        TracerProvider provider = new TracerProvider() {
            @Override
            public Tracer get(String name) {
                return new ReplaySafeTracer(telemetry.getTracer(name), open);
            }

            @Override
            public Tracer get(String name, String version) {
                return new ReplaySafeTracer(telemetry.getTracer(name, version), open);
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
                        return new ReplaySafeTracer(real.build(), open);
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
    private record ReplaySafeTracer(Tracer real, OpenSpans open) implements Tracer {
        @Override
        public SpanBuilder spanBuilder(String name) {
            return WorkflowUnsafe.isReplaying()
                    ? OpenTelemetry.noop().getTracer(INSTRUMENTATION).spanBuilder(name)
                    : new KeptSpanBuilder(real.spanBuilder(name), open);
        }
    }

    /**
     * The spans one workflow run started on this worker and may not have ended: a workflow's spans stay open
     * across its workflow tasks (a step's span from its start to its commit), and when the workflow leaves
     * this worker (evicted from its cache, the worker stopping) Temporal unwinds its threads, and the spans
     * would never end. {@link #endAll} ends them, so they are exported.
     */
    static final class OpenSpans {
        private final List<Span> spans = new ArrayList<>();
        /** When the list is this long, the ended spans are dropped from it. */
        private int prune = 64;
        /** The worker's runs that may hold spans open, this one among them until it ends. */
        private final java.util.Set<OpenSpans> live;

        /** @param live the worker's runs that may hold spans open ({@link WorkerParts#endOpenSpans}) */
        OpenSpans(java.util.Set<OpenSpans> live) {
            this.live = live;
            live.add(this);
        }

        /** The run ended on this worker (its spans ended with it). */
        void done() {
            live.remove(this);
        }

        synchronized void started(Span span) {
            if (spans.size() >= prune) {
                spans.removeIf(kept -> !kept.isRecording());
                prune = Math.max(64, spans.size() * 2);
            }
            spans.add(span);
        }

        /** Ends every span not ended yet, the latest first (calls, then steps, then the run); returns how many. */
        synchronized int endAll() {
            int ended = 0;
            for (int i = spans.size() - 1; i >= 0; i--) {
                Span span = spans.get(i);
                if (span.isRecording()) {
                    span.setAttribute(LEFT_WORKER, true);
                    span.end();
                    ended++;
                }
            }
            spans.clear();
            live.remove(this);
            return ended;
        }
    }

    /** A span builder whose spans are kept in {@link OpenSpans}. */
    private record KeptSpanBuilder(SpanBuilder real, OpenSpans open) implements SpanBuilder {
        @Override
        public SpanBuilder setParent(Context context) {
            real.setParent(context);
            return this;
        }

        @Override
        public SpanBuilder setNoParent() {
            real.setNoParent();
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext) {
            real.addLink(spanContext);
            return this;
        }

        @Override
        public SpanBuilder addLink(SpanContext spanContext, Attributes attributes) {
            real.addLink(spanContext, attributes);
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, String value) {
            real.setAttribute(key, value);
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, long value) {
            real.setAttribute(key, value);
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, double value) {
            real.setAttribute(key, value);
            return this;
        }

        @Override
        public SpanBuilder setAttribute(String key, boolean value) {
            real.setAttribute(key, value);
            return this;
        }

        @Override
        public <T> SpanBuilder setAttribute(AttributeKey<T> key, T value) {
            real.setAttribute(key, value);
            return this;
        }

        @Override
        public SpanBuilder setSpanKind(SpanKind spanKind) {
            real.setSpanKind(spanKind);
            return this;
        }

        @Override
        public SpanBuilder setStartTimestamp(long startTimestamp, TimeUnit unit) {
            real.setStartTimestamp(startTimestamp, unit);
            return this;
        }

        @Override
        public Span startSpan() {
            Span span = real.startSpan();
            open.started(span);
            return span;
        }
    }

    /**
     * The context a workflow's run span starts in: under the client's span whose W3C {@code traceparent} the
     * request carries, else a root (nothing a pooled workflow thread held before is its parent).
     */
    static Context runParent(String traceparent) {
        return remote(traceparent);
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
        Context parent = remote(traceparent);
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

    /** The root context, with the span {@code traceparent} names (when it is well-formed and valid) as the parent. */
    private static Context remote(String traceparent) {
        Context parent = Context.root();
        Matcher parts = traceparent == null ? null : TRACEPARENT.matcher(traceparent);
        if (parts != null && parts.matches()) {
            SpanContext remote = SpanContext.createFromRemoteParent(
                    parts.group(1), parts.group(2), TraceFlags.fromHex(parts.group(3), 0), TraceState.getDefault());
            if (remote.isValid()) {
                parent = parent.with(Span.wrap(remote));
            }
        }
        return parent;
    }
}
