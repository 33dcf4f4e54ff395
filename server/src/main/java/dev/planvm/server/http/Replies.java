package dev.planvm.server.http;

import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Writing answers on a Jetty response: a route's {@link dev.planvm.server.http.Response}, or an error. */
final class Replies {

    private Replies() {}

    /** Writes a route's answer (blocking); returns its status. */
    static int write(Response response, dev.planvm.server.http.Response answer) throws IOException {
        if (answer instanceof dev.planvm.server.http.Response.Streamed streamed) {
            return streamed.status();
        }
        if (answer instanceof dev.planvm.server.http.Response.Json json) {
            json.headers().forEach(response.getHeaders()::put);
            send(response, json.status(), "application/json", Json.write(json.body()) + "\n");
            return json.status();
        }
        dev.planvm.server.http.Response.Text text = (dev.planvm.server.http.Response.Text) answer;
        text.headers().forEach(response.getHeaders()::put);
        send(response, text.status(), text.contentType(), text.body());
        return text.status();
    }

    /** Writes an error (blocking), unless an answer was already started (an event stream just ends); its status. */
    static int error(Response response, ServiceException e) {
        if (response.isCommitted()) {
            return e.kind().status();
        }
        errorHeaders(response, e);
        try {
            send(response, e.kind().status(), "application/json", Json.write(e.toJson()) + "\n");
        } catch (IOException | RuntimeException gone) {
            // the answer could not be sent (the client left)
        }
        return e.kind().status();
    }

    /** Writes an error without blocking, completing {@code callback}; its status. */
    static int errorAsync(Response response, Callback callback, ServiceException e) {
        errorHeaders(response, e);
        head(response, e.kind().status(), "application/json");
        Content.Sink.write(response, true, Json.write(e.toJson()) + "\n", callback);
        return e.kind().status();
    }

    private static void errorHeaders(Response response, ServiceException e) {
        Map<String, String> headers = switch (e.kind()) {
            case BUSY, SHUTTING_DOWN -> Map.of("Retry-After", "1");
            case UNAUTHORIZED -> Map.of("WWW-Authenticate", "Bearer realm=\"planvm\"");
            case METHOD_NOT_ALLOWED -> Map.of("Allow", e.details().path("allow").asText("GET"));
            case REQUEST_TIMEOUT -> Map.of("Connection", "close");
            default -> Map.of();
        };
        headers.forEach(response.getHeaders()::put);
    }

    private static void send(Response response, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        head(response, status, type);
        response.getHeaders().put("Content-Length", String.valueOf(bytes.length));
        try (OutputStream out = Content.Sink.asOutputStream(response)) {
            out.write(bytes);
        }
    }

    private static void head(Response response, int status, String type) {
        response.setStatus(status);
        response.getHeaders().put("Content-Type", type);
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
    }
}
