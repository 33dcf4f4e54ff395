package dev.planvm.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.Json;
import dev.planvm.vm.run.Threads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code planvm serve}: the HTTP API over a {@link PlanService}, on the JDK's {@code HttpServer} (a thread
 * per request, virtual on JDK 21+). Safety: loopback by default, any other address only with a bearer
 * token (compared in constant time); bodies bounded; a bounded number of requests and event streams at
 * once (beyond: 429 with {@code Retry-After}); every error a JSON body {@code {error, message, details}}
 * without a stack trace. {@link #stop} stops accepting, lets active runs reach a commit point within the
 * grace period and leaves the rest interrupted (resumed when a server starts on the store again).
 *
 * <pre>{@code
 * PlanServer server = PlanServer.start(service, ServerSettings.DEFAULT.withPort(0));
 * ... server.url() ...
 * server.stop(Duration.ofSeconds(10));
 * }</pre>
 */
public final class PlanServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlanServer.class);

    static {
        // a client that sends its request too slowly is dropped (the JDK server's own setting, in seconds)
        if (System.getProperty("sun.net.httpserver.maxReqTime") == null) {
            System.setProperty("sun.net.httpserver.maxReqTime", "60");
        }
    }

    private final PlanService service;
    private final ServerSettings settings;
    private final HttpServer http;
    private final ExecutorService executor;
    private final Api api;
    private final Semaphore requests;
    private final Semaphore streams;
    private final byte[] tokenHash;
    private volatile boolean stopping;
    private volatile List<String> late;

    private PlanServer(PlanService service, ServerSettings settings, HttpServer http) {
        this.service = service;
        this.settings = settings;
        this.http = http;
        this.executor = Threads.perTask("planvm-http");
        this.api = new Api(service, settings, () -> stopping);
        this.requests = new Semaphore(settings.maxRequests());
        this.streams = new Semaphore(settings.maxEventStreams());
        this.tokenHash = settings.token() == null ? null : sha256(settings.token());
    }

    /**
     * Starts serving.
     *
     * @throws IllegalArgumentException when {@code bind} is not a loopback address and there is no token
     * @throws IOException              when the address cannot be bound (in use, not this host's)
     */
    public static PlanServer start(PlanService service, ServerSettings settings) throws IOException {
        InetAddress address = InetAddress.getByName(settings.bind());
        if (!address.isLoopbackAddress() && settings.token() == null) {
            throw new IllegalArgumentException(
                    "listening on " + settings.bind() + ", which is not a loopback address, needs a "
                            + "bearer token (--token-file FILE): anyone who can reach it could run plans");
        }
        HttpServer http = HttpServer.create(new InetSocketAddress(address, settings.port()), 256);
        PlanServer server = new PlanServer(service, settings, http);
        http.setExecutor(server.executor);
        http.createContext("/", server::handle);
        http.start();
        return server;
    }

    /** The port it listens on (the one chosen when the settings said 0). */
    public int port() {
        return http.getAddress().getPort();
    }

    /** {@code http://HOST:PORT}. */
    public String url() {
        String host = http.getAddress().getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
    }

    /**
     * Stops: new requests are answered 503, active runs stop at their next commit point within {@code grace},
     * runs still in a step then are left interrupted; then the listener closes. Returns the ids of those runs.
     */
    public synchronized List<String> stop(Duration grace) {
        if (late != null) {
            return late;
        }
        stopping = true;
        late = service.shutdown(grace);
        http.stop(0);
        executor.shutdownNow();
        return late;
    }

    @Override
    public void close() {
        stop(settings.shutdownGrace());
    }

    private void handle(HttpExchange exchange) {
        int status = 500;
        try {
            String path = exchange.getRequestURI().getRawPath();
            boolean health = path.equals("/healthz");
            if (stopping && !health) {
                throw new ServiceException(ServiceException.Kind.SHUTTING_DOWN, "the server is shutting down");
            }
            if (!health && !authorized(exchange)) {
                throw new ServiceException(
                        ServiceException.Kind.UNAUTHORIZED,
                        "this server needs a bearer token: " + "send Authorization: Bearer TOKEN");
            }
            Semaphore limit = Api.isEventStream(path) ? streams : requests;
            if (!limit.tryAcquire()) {
                throw new ServiceException(
                        ServiceException.Kind.BUSY,
                        "the server handles "
                                + (limit == streams
                                        ? settings.maxEventStreams() + " event streams"
                                        : settings.maxRequests() + " requests")
                                + " at once, its limit; try again shortly");
            }
            try {
                status = write(exchange, api.handle(new Request(exchange, settings.maxBodyBytes())));
            } finally {
                limit.release();
            }
        } catch (ServiceException e) {
            status = error(exchange, e);
        } catch (IOException e) {
            status = 499; // the client went away
        } catch (RuntimeException | Error e) {
            log.warn("request failed unexpectedly: {}", e.toString());
            status = error(
                    exchange,
                    new ServiceException(
                            ServiceException.Kind.INTERNAL,
                            "the server failed unexpectedly: " + e.getClass().getSimpleName()));
        } finally {
            service.metrics().answered(status);
            exchange.close();
        }
    }

    /** Whether the request carries the token (always, when there is none), compared in constant time. */
    private boolean authorized(HttpExchange exchange) {
        if (tokenHash == null) {
            return true;
        }
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? header.substring(7).strip()
                : "";
        return MessageDigest.isEqual(sha256(given), tokenHash);
    }

    private static int write(HttpExchange exchange, Response response) throws IOException {
        if (response instanceof Response.Streamed streamed) {
            return streamed.status();
        }
        if (response instanceof Response.Json json) {
            json.headers()
                    .forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
            send(exchange, json.status(), "application/json", Json.write(json.body()) + "\n");
            return json.status();
        }
        Response.Text text = (Response.Text) response;
        send(exchange, text.status(), text.contentType(), text.body());
        return text.status();
    }

    private static int error(HttpExchange exchange, ServiceException e) {
        ServiceException.Kind kind = e.kind();
        Map<String, String> headers = switch (kind) {
            case BUSY, SHUTTING_DOWN -> Map.of("Retry-After", "1");
            case UNAUTHORIZED -> Map.of("WWW-Authenticate", "Bearer realm=\"planvm\"");
            case METHOD_NOT_ALLOWED -> Map.of("Allow", e.details().path("allow").asText("GET"));
            default -> Map.of();
        };
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        try {
            send(exchange, kind.status(), "application/json", Json.write(e.toJson()) + "\n");
        } catch (IOException | RuntimeException gone) {
            // the answer could not be sent (already started, or the client left)
        }
        return kind.status();
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.getResponseHeaders().set("X-Content-Type-Options", "nosniff");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
