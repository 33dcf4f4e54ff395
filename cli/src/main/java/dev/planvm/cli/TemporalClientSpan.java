package dev.planvm.cli;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import java.nio.file.Path;

/**
 * The span of {@code run --temporal} on the client, current while the command starts the workflow and waits
 * for it: the workflow's run span is its child (the request carries its {@code traceparent}), so the command
 * and the workers' spans are one trace. Only made when the environment asks for traces ({@link Telemetry}).
 */
final class TemporalClientSpan implements AutoCloseable {

    private static final AttributeKey<String> PLAN = AttributeKey.stringKey("planvm.plan.name");
    private static final AttributeKey<String> QUEUE = AttributeKey.stringKey("temporal.task_queue");
    private static final AttributeKey<String> WORKFLOW_ID = AttributeKey.stringKey("temporal.workflow.id");

    private final Span span;
    private final Scope scope;

    private TemporalClientSpan(Span span) {
        this.span = span;
        this.scope = span.makeCurrent();
    }

    /** Starts the span of running {@code file} on task queue {@code queue}, and makes it current. */
    static TemporalClientSpan start(OpenTelemetry telemetry, String file, String queue) {
        Path name = file.equals("-") ? null : Path.of(file).getFileName();
        return new TemporalClientSpan(telemetry
                .getTracer("dev.planvm.cli")
                .spanBuilder("planvm.temporal.run")
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(PLAN, name == null ? file : name.toString())
                .setAttribute(QUEUE, queue)
                .startSpan());
    }

    void workflow(String id) {
        span.setAttribute(WORKFLOW_ID, id);
    }

    @Override
    public void close() {
        scope.close();
        span.end();
    }
}
