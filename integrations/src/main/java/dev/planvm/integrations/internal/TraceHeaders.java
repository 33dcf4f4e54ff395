package dev.planvm.integrations.internal;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The W3C trace context headers ({@code traceparent}, and {@code tracestate} when there is one) of the
 * span current on this thread: the call's span while planvm traces runs (see
 * {@code PlanVmBuilder.openTelemetry}), so the service a tool calls joins the run's trace. Nothing when
 * no span is current (tracing off): requests are then exactly as before.
 */
public final class TraceHeaders {

    private TraceHeaders() {}

    /** The headers to add, empty when no valid span is current. */
    public static Map<String, String> current() {
        Context context = Context.current();
        if (!Span.fromContext(context).getSpanContext().isValid()) {
            return Map.of();
        }
        Map<String, String> headers = new LinkedHashMap<>();
        W3CTraceContextPropagator.getInstance().inject(context, headers, (carrier, key, value) -> {
            if (carrier != null) {
                carrier.put(key, value);
            }
        });
        return headers;
    }

    /**
     * {@code configured} with the current trace headers added, unless the configuration sets a header of
     * the same name itself (it wins: a tool may be set up to send its own).
     */
    public static Map<String, String> addedTo(Map<String, String> configured) {
        Map<String, String> trace = current();
        if (trace.isEmpty()) {
            return configured;
        }
        Map<String, String> all = new LinkedHashMap<>(configured);
        trace.forEach((name, value) -> {
            if (configured.keySet().stream().noneMatch(name::equalsIgnoreCase)) {
                all.put(name, value);
            }
        });
        return all;
    }
}
