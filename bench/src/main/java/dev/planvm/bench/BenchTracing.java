package dev.planvm.bench;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tracing as {@code planvm serve} does it with {@code OTEL_EXPORTER_OTLP_ENDPOINT} set: the SDK with a batch
 * span processor and the OTLP/HTTP exporter (JDK sender), exporting to a receiver on 127.0.0.1 that reads
 * and counts the bytes (it does not decode them: a collector runs elsewhere).
 */
final class BenchTracing {

    private final HttpServer receiver;
    private final OpenTelemetrySdk sdk;
    private final AtomicLong exports = new AtomicLong();

    private BenchTracing(HttpServer receiver, OpenTelemetrySdk sdk) {
        this.receiver = receiver;
        this.sdk = sdk;
    }

    static BenchTracing start() throws IOException {
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.setExecutor(Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "otlp-receiver");
            thread.setDaemon(true); // the bench's JVM ends when its work does
            return thread;
        }));
        AtomicLong[] count = {null};
        receiver.createContext("/v1/traces", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                if (count[0] != null) {
                    count[0].incrementAndGet();
                }
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, -1);
            }
        });
        receiver.start();
        OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                                        .setEndpoint("http://127.0.0.1:"
                                                + receiver.getAddress().getPort() + "/v1/traces")
                                        .build())
                                .setMaxQueueSize(1 << 16) // none dropped: every span is exported and paid for
                                .setMaxExportBatchSize(2048) // planvm's default (cli TelemetrySdk), not the SDK's 512
                                .build())
                        .build())
                .build();
        BenchTracing tracing = new BenchTracing(receiver, sdk);
        count[0] = tracing.exports;
        return tracing;
    }

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    /** Exports what is left, stops; returns how many export requests the receiver took. */
    long close() {
        sdk.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        sdk.close();
        receiver.stop(0);
        return exports.get();
    }
}
