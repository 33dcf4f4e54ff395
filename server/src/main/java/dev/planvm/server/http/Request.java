package dev.planvm.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * One HTTP request as the API reads it: method, path, query, headers, and a body bounded in size and in the
 * time it may take to arrive; and the answer's stream for a route that writes its answer itself.
 */
final class Request {

    private static final int MAX_QUERY_PARAMS = 50;

    private final org.eclipse.jetty.server.Request request;
    private final Response response;
    private final long maxBody;
    private final Duration bodyTimeout;
    private final Map<String, String> query;

    Request(org.eclipse.jetty.server.Request request, Response response, long maxBody, Duration bodyTimeout) {
        this.request = request;
        this.response = response;
        this.maxBody = maxBody;
        this.bodyTimeout = bodyTimeout;
        this.query = parseQuery(request.getHttpURI().getQuery());
    }

    String method() {
        return request.getMethod();
    }

    /** The path as sent (still percent-encoded). */
    String path() {
        return request.getHttpURI().getPath();
    }

    String header(String name) {
        return request.getHeaders().get(name);
    }

    /** Starts the answer with {@code status} and {@code headers}; the caller writes the rest and closes it. */
    OutputStream stream(int status, Map<String, String> headers) {
        response.setStatus(status);
        headers.forEach(response.getHeaders()::put);
        return Content.Sink.asOutputStream(response);
    }

    String query(String name) {
        return query.get(name);
    }

    /** A query flag: {@code true} or {@code 1}. */
    boolean flag(String name) {
        String value = query.get(name);
        return "true".equals(value) || "1".equals(value);
    }

    /** A query number within bounds, or {@code otherwise}; anything else is a {@code bad_request}. */
    int number(String name, int otherwise, int min, int max) {
        String value = query.get(name);
        if (value == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new ServiceException(
                ServiceException.Kind.BAD_REQUEST,
                "query parameter " + name + " must be a whole number from " + min + " to " + max + ", not '" + value
                        + "'");
    }

    /** The body as JSON; an absent or empty body is {@code null} when {@code optional}. */
    JsonNode json(boolean optional) {
        byte[] body = body();
        if (body.length == 0 && optional) {
            return null;
        }
        try {
            return Json.read(body);
        } catch (Json.Malformed e) {
            throw new ServiceException(ServiceException.Kind.BAD_REQUEST, e.getMessage());
        }
    }

    /**
     * The body, at most {@code maxBody} bytes, within {@code bodyTimeout}: a larger one is {@code too_large}
     * (checked before reading when declared), a slower one {@code request_timeout}.
     */
    byte[] body() {
        String declared = header("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.strip()) > maxBody) {
                    throw tooLarge();
                }
            } catch (NumberFormatException e) {
                throw new ServiceException(ServiceException.Kind.BAD_REQUEST, "Content-Length is not a number");
            }
        }
        AtomicBoolean late = new AtomicBoolean();
        Scheduler.Task deadline = request.getComponents()
                .getScheduler()
                .schedule(
                        () -> {
                            late.set(true);
                            request.fail(new TimeoutException("the request body did not arrive in time"));
                        },
                        bodyTimeout.toMillis(),
                        TimeUnit.MILLISECONDS);
        try (InputStream in = Content.Source.asInputStream(request)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] buffer = new byte[16384];
            long total = 0;
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                total += n;
                if (total > maxBody) {
                    throw tooLarge();
                }
                out.write(buffer, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            if (late.get()) {
                throw new ServiceException(
                        ServiceException.Kind.REQUEST_TIMEOUT,
                        "the request body did not arrive within " + bodyTimeout.toSeconds() + " s");
            }
            throw new ServiceException(ServiceException.Kind.BAD_REQUEST, "cannot read the request body");
        } finally {
            deadline.cancel();
        }
    }

    private ServiceException tooLarge() {
        return new ServiceException(
                ServiceException.Kind.TOO_LARGE,
                "the request body is larger than " + maxBody + " bytes, the most this server reads");
    }

    private static Map<String, String> parseQuery(String raw) {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&", MAX_QUERY_PARAMS + 1)) {
            if (params.size() >= MAX_QUERY_PARAMS) {
                break;
            }
            int eq = pair.indexOf('=');
            try {
                String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                params.putIfAbsent(name, value);
            } catch (IllegalArgumentException malformed) {
                throw new ServiceException(
                        ServiceException.Kind.BAD_REQUEST, "the query string is malformed: " + malformed.getMessage());
            }
        }
        return params;
    }
}
