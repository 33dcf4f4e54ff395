package dev.planvm.integrations.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.json.BoundedHttp;
import dev.planvm.tools.RetryAfter;
import dev.planvm.tools.ToolException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Sends one HTTP request for a tool and turns the answer into the tool's output or a
 * {@link ToolException}: 2xx gives the body (JSON when it parses, else text; {@code null} when empty),
 * optionally the value at a JSON pointer in it; 408, 429 and 5xx are retriable failures honouring
 * {@code Retry-After}; other statuses (redirects included: they are not followed) are permanent. The
 * body is read up to a bound, and the whole exchange, body included, must finish within the timeout,
 * so a server that trickles its answer cannot hang a run. Messages name the method and URL, never a
 * header value. The request carries the current span's W3C {@code traceparent} ({@link TraceHeaders}).
 */
public final class HttpExchange {

    /** The largest answer body read by default (8 MiB). */
    public static final long DEFAULT_MAX_BODY = 8L << 20;

    private static final int MAX_DETAIL = 200;

    /** How much of an error answer's body is read: enough for the start of its message. */
    private static final long ERROR_BODY_BYTES = 64 * 1024;

    /** A request: method, URL, headers, and a body (or null). */
    public record Request(String method, URI uri, Map<String, String> headers, byte[] body) {
        public Request {
            headers = Map.copyOf(headers);
        }

        String describe() {
            return method + " " + uri;
        }
    }

    private final HttpClient client;
    private final long maxBody;
    private final Clock clock;

    public HttpExchange(long maxBody, Clock clock) {
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        this.maxBody = maxBody;
        this.clock = clock;
    }

    /**
     * Sends {@code request} and returns the output.
     *
     * @param output a JSON pointer into the answer, or null for the whole answer
     */
    public JsonNode call(Request request, Duration timeout, String output) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(timeout);
        TraceHeaders.addedTo(request.headers()).forEach(builder::header);
        builder.method(
                request.method(),
                request.body() == null
                        ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body()));
        HttpResponse<byte[]> response = send(request, builder.build(), timeout);
        int status = response.statusCode();
        String body = new String(response.body(), StandardCharsets.UTF_8);
        if (status >= 200 && status < 300) {
            return output(request, body, output);
        }
        boolean retriable = status == 408 || status == 429 || status >= 500;
        String detail = body.isBlank() ? "" : ": " + Json.shorten(body, MAX_DETAIL);
        String location = status >= 300 && status < 400
                ? response.headers()
                        .firstValue("location")
                        .map(to -> " (a redirect to " + Json.shorten(to, MAX_DETAIL)
                                + "; redirects are not followed, configure the final URL)")
                        .orElse("")
                : "";
        String message = request.describe() + " answered HTTP " + status + location + detail;
        if (status == 429 || status == 503) { // overloaded: the tool's concurrency limit shrinks too
            return throwing(ToolException.overloaded(
                    message, RetryAfter.from(response.headers().map(), clock)));
        }
        return throwing(new ToolException(
                message,
                retriable,
                null,
                retriable ? RetryAfter.from(response.headers().map(), clock) : null));
    }

    private static JsonNode throwing(ToolException e) {
        throw e;
    }

    private HttpResponse<byte[]> send(Request request, HttpRequest http, Duration timeout) {
        try {
            return BoundedHttp.send(client, http, new BoundedHttp.Bounds(maxBody, ERROR_BODY_BYTES, timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ToolException("the call was interrupted", false);
        } catch (IOException | RuntimeException e) {
            throw failure(request, e, timeout);
        }
    }

    private static ToolException failure(Request request, Exception cause, Duration timeout) {
        String at = request.describe();
        if (cause instanceof BoundedHttp.TooLarge tooLarge) {
            return new ToolException(at + ": " + tooLarge.getMessage(), false);
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return new ToolException(at + ": cannot connect (the connection timed out)", true);
        }
        if (cause instanceof HttpTimeoutException) {
            return new ToolException(at + " gave no complete answer within " + seconds(timeout), true);
        }
        if (find(cause, ConnectException.class) != null) {
            return new ToolException(at + ": cannot connect (connection refused)", true);
        }
        IOException io = find(cause, IOException.class);
        String reason = io != null && io.getMessage() != null
                ? io.getMessage()
                : cause.getClass().getSimpleName();
        return new ToolException(at + " failed: " + Json.shorten(reason, MAX_DETAIL), io != null);
    }

    private static JsonNode output(Request request, String body, String pointer) {
        if (pointer == null) {
            if (body.isEmpty()) {
                return JsonNodeFactory.instance.nullNode();
            }
            return Json.parse(body).orElseGet(() -> TextNode.valueOf(body));
        }
        JsonNode document = Json.parse(body)
                .orElseThrow(() -> new ToolException(
                        "the answer of " + request.describe() + " is not JSON, so its output " + pointer
                                + " cannot be read: " + Json.shorten(body, MAX_DETAIL),
                        false));
        JsonNode value = document.at(pointer);
        if (value.isMissingNode()) {
            throw new ToolException(
                    "the answer of " + request.describe() + " has nothing at " + pointer + " (it is "
                            + Json.kind(document) + keys(document) + ")",
                    false);
        }
        return value;
    }

    private static String keys(JsonNode document) {
        if (!document.isObject()) {
            return "";
        }
        Map<String, Boolean> names = new LinkedHashMap<>();
        for (Iterator<String> it = document.fieldNames(); it.hasNext() && names.size() < 20; ) {
            names.put(it.next(), true);
        }
        return " with keys " + String.join(", ", names.keySet());
    }

    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + " s"
                : String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
