package dev.planvm.cli;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry SDK set up by autoconfigure from {@code OTEL_*} variables (only {@link Telemetry}
 * touches this class, and only when tracing is on). planvm's defaults, which the environment overrides:
 * service name {@code planvm}, OTLP over {@code http/protobuf} (sent by the JDK's HTTP client), and no
 * metrics or logs exporter (planvm exports traces; its metrics are on {@code planvm serve}'s
 * {@code /metrics}). Spans are batched in bigger batches than the SDK's default ({@value #EXPORT_BATCH} spans a
 * request rather than 512, a queue of {@value #QUEUE} rather than 2,048), so a busy {@code planvm serve} sends a
 * quarter of the requests and drops no span in a burst; {@code OTEL_BSP_*} overrides both.
 */
final class TelemetrySdk {

    /** How long closing waits for the last spans to be exported. */
    private static final long FLUSH_SECONDS = 10;
    /** Spans in one export request (the SDK's default is 512). */
    static final int EXPORT_BATCH = 2048;
    /** Spans waiting for export before new ones are dropped (the SDK's default is 2,048). */
    static final int QUEUE = 16384;

    private final OpenTelemetrySdk sdk;

    private TelemetrySdk(OpenTelemetrySdk sdk) {
        this.sdk = sdk;
    }

    static TelemetrySdk start(Map<String, String> environment) {
        JulToLogs.route("io.opentelemetry"); // an unreachable collector: one line, no stack trace
        Map<String, String> properties = new HashMap<>();
        properties.put("otel.service.name", "planvm");
        properties.put("otel.exporter.otlp.protocol", "http/protobuf");
        properties.put("otel.metrics.exporter", "none");
        properties.put("otel.logs.exporter", "none");
        properties.put("otel.bsp.max.export.batch.size", String.valueOf(EXPORT_BATCH));
        properties.put("otel.bsp.max.queue.size", String.valueOf(QUEUE));
        // the command's environment (tests pass their own; the process's own wins where both set one)
        environment.forEach((name, value) -> {
            if (name.startsWith("OTEL_")) {
                properties.put(name.toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        OpenTelemetrySdk sdk = AutoConfiguredOpenTelemetrySdk.builder()
                .addPropertiesSupplier(() -> properties)
                .disableShutdownHook()
                .build()
                .getOpenTelemetrySdk();
        return new TelemetrySdk(sdk);
    }

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    void close() {
        sdk.getSdkTracerProvider().forceFlush().join(FLUSH_SECONDS, TimeUnit.SECONDS);
        sdk.shutdown().join(FLUSH_SECONDS, TimeUnit.SECONDS);
    }
}
