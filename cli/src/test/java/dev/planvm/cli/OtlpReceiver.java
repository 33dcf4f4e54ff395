package dev.planvm.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;

/**
 * A real OTLP/HTTP receiver on 127.0.0.1: takes {@code POST /v1/traces} protobuf bodies, decodes them
 * with the official proto classes and keeps every request.
 */
final class OtlpReceiver implements AutoCloseable {

    private final HttpServer server;
    final List<ExportTraceServiceRequest> requests = new CopyOnWriteArrayList<>();
    final List<String> contentTypes = new CopyOnWriteArrayList<>();

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/traces", this::traces);
        server.start();
    }

    /** What {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set to. */
    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void traces(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            InputStream body = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            requests.add(ExportTraceServiceRequest.parseFrom(body.readAllBytes()));
            byte[] answer = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, answer.length == 0 ? -1 : answer.length);
            if (answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        }
    }

    /** Every span received, from every request. */
    List<Span> spans() {
        List<Span> all = new ArrayList<>();
        for (ExportTraceServiceRequest request : requests) {
            for (ResourceSpans resource : request.getResourceSpansList()) {
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    all.addAll(scope.getSpansList());
                }
            }
        }
        return all;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
