package dev.planvm.bench;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Tracing as {@code planvm serve} does it with {@code OTEL_EXPORTER_OTLP_ENDPOINT} set: the SDK with a batch
 * span processor and the OTLP/HTTP exporter (JDK sender), exporting to {@link OtlpSink}, a receiver in a
 * separate process on 127.0.0.1 that drains and counts the bytes (it does not decode them: a collector runs
 * elsewhere, and its work is not the server's). System properties for trying settings:
 * {@code planvm.bench.bsp.batch} (spans an export, default planvm's 2,048) and {@code planvm.bench.bsp.delay}
 * (ms, default the SDK's 5,000).
 */
final class BenchTracing {

    private final Process receiver;
    private final OpenTelemetrySdk sdk;

    private BenchTracing(Process receiver, OpenTelemetrySdk sdk) {
        this.receiver = receiver;
        this.sdk = sdk;
    }

    static BenchTracing start() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process receiver = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-XX:+UseSerialGC",
                        "-XX:TieredStopAtLevel=1",
                        "-cp",
                        System.getProperty("java.class.path"),
                        OtlpSink.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        String port = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        if (port == null) {
            throw new IOException("the OTLP receiver process did not start");
        }
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                                        .setEndpoint("http://127.0.0.1:" + port.trim() + "/v1/traces")
                                        .build())
                                .setMaxQueueSize(1 << 16) // none dropped: every span is exported and paid for
                                // planvm's default (cli TelemetrySdk), not the SDK's 512
                                .setMaxExportBatchSize(Integer.getInteger("planvm.bench.bsp.batch", 2048))
                                .setScheduleDelay(
                                        Integer.getInteger("planvm.bench.bsp.delay", 5000), TimeUnit.MILLISECONDS)
                                .build())
                        .build())
                .build();
        return new BenchTracing(receiver, sdk);
    }

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** Exports what is left, stops; returns what the receiver took: {@code REQUESTS BYTES}. */
    String close() throws IOException {
        sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        sdk.close();
        receiver.getOutputStream().close();
        String counts = new BufferedReader(new InputStreamReader(receiver.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
        receiver.destroy();
        return counts == null ? "? ?" : counts;
    }
}
