package dev.planvm.server.http;

import dev.planvm.server.PlanService;
import dev.planvm.server.ServiceException;
import dev.planvm.server.internal.AllowedHosts;
import dev.planvm.server.internal.HttpListener;
import dev.planvm.server.internal.RequestGuard;
import dev.planvm.vm.run.Threads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code planvm serve}: the HTTP API over a {@link PlanService}, on Jetty ({@link HttpListener}). Request heads
 * are parsed on Jetty's selector thread without blocking, so a slow client costs a connection slot (at most
 * {@link ServerSettings#maxConnections}) and never a thread, and is cut when its head has not arrived within
 * {@link ServerSettings#headerTimeout}; a complete request is checked there and handed to a bounded pool of
 * workers (one per request and event stream allowed at once) — the same on every JDK. Safety, in the order
 * checked:
 * <ol>
 *   <li>{@link RequestGuard}: the request names this server ({@code Host}: the bound address, or an allowed
 *       host), comes from no web page unless its origin is allowed, and a POST carries JSON;</li>
 *   <li>the bearer token when there is one (compared in constant time; any address but loopback needs one),
 *       except for the health check and the run browser's files ({@code /}, {@code /ui/...}), which hold no data;</li>
 *   <li>a bounded number of requests and event streams at once (beyond: 429 with {@code Retry-After});</li>
 *   <li>bodies bounded in size and in the time they take to arrive.</li>
 * </ol>
 * Every error is a JSON body {@code {error, message, details}} without a stack trace. {@link #stop} stops
 * accepting, lets active runs reach a commit point within the grace period and leaves the rest interrupted
 * (resumed when a server starts on the store again).
 *
 * <pre>{@code
 * PlanServer server = PlanServer.start(service, ServerSettings.builder().port(0).build());
 * ... server.url() ...
 * server.stop(Duration.ofSeconds(10));
 * }</pre>
 */
public final class PlanServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PlanServer.class);
    /** Jetty's own threads: acceptor, selector, timers' callbacks. The requests run on the workers. */
    private static final int JETTY_THREADS = 12;

    private final PlanService service;
    private final ServerSettings settings;
    private final Api api;
    private final Semaphore requests;
    private final Semaphore streams;
    private final ThreadPoolExecutor workers;
    private final byte[] tokenHash;
    private final String host;
    private volatile HttpListener listener;
    private volatile boolean stopping;
    private volatile List<String> late;

    private PlanServer(PlanService service, ServerSettings settings, String host) {
        this.service = service;
        this.settings = settings;
        this.api = new Api(service, settings, () -> stopping);
        this.requests = new Semaphore(settings.maxRequests());
        this.streams = new Semaphore(settings.maxEventStreams());
        this.workers = new ThreadPoolExecutor(
                0,
                settings.maxRequests() + settings.maxEventStreams(),
                60,
                TimeUnit.SECONDS,
                new SynchronousQueue<>(),
                Threads.daemon("planvm-http"));
        this.tokenHash = settings.token() == null ? null : sha256(settings.token());
        this.host = host;
    }

    /**
     * Starts serving.
     *
     * @throws IllegalArgumentException when {@code bind} is not a loopback address and there is no token, or an
     *                                  allowed host or origin is not one
     * @throws IOException              when the address cannot be bound (in use, not this host's)
     */
    public static PlanServer start(PlanService service, ServerSettings settings) throws IOException {
        InetAddress address;
        try {
            address = InetAddress.getByName(settings.bind());
        } catch (UnknownHostException e) {
            throw new IOException("cannot resolve " + settings.bind(), e);
        }
        if (!address.isLoopbackAddress() && settings.token() == null) {
            throw new IllegalArgumentException(
                    "listening on " + settings.bind() + ", which is not a loopback address, needs a "
                            + "bearer token (--token-file FILE): anyone who can reach it could run plans");
        }
        PlanServer server = new PlanServer(service, settings, address.getHostAddress());
        RequestGuard guarded = new RequestGuard(
                AllowedHosts.of(settings.bind(), settings.allowHosts()),
                RequestGuard.origins(settings.allowOrigins()),
                "GET, POST",
                "Authorization, Content-Type, Last-Event-ID",
                "Location, Retry-After",
                server.new Front());
        server.listener = HttpListener.start(
                settings.bind(),
                settings.port(),
                new HttpListener.Limits(
                        settings.maxConnections(),
                        JETTY_THREADS,
                        settings.headerTimeout(),
                        Duration.ofSeconds(30),
                        16 * 1024),
                "planvm-jetty",
                guarded);
        return server;
    }

    /** The port it listens on (the one chosen when the settings said 0). */
    public int port() {
        return listener.port();
    }

    /** {@code http://HOST:PORT}. */
    public String url() {
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
    }

    /** Connections open now (at most {@link ServerSettings#maxConnections}). */
    public int connections() {
        return listener.connections();
    }

    /** Connections ended because their request head did not arrive within {@link ServerSettings#headerTimeout}. */
    public long slowClientsCut() {
        return listener.cut();
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
        listener.stop();
        workers.shutdownNow();
        return late;
    }

    @Override
    public void close() {
        stop(settings.shutdownGrace());
    }

    /**
     * Where a request whose head arrived begins, on Jetty's selector thread, so nothing here blocks: the cheap
     * refusals (stopping, no token, too many at once) are answered at once; the rest goes to a worker.
     */
    private final class Front extends Handler.Abstract.NonBlocking {
        @Override
        public boolean handle(org.eclipse.jetty.server.Request request, Response response, Callback callback) {
            String path = request.getHttpURI().getPath();
            boolean health = "/healthz".equals(path);
            boolean open = health || Api.isBrowserFile(path); // no data there: the browser asks for the token
            Semaphore limit = Api.isEventStream(path) ? streams : requests;
            ServiceException refused = null;
            if (stopping && !health) {
                refused = new ServiceException(ServiceException.Kind.SHUTTING_DOWN, "the server is shutting down");
            } else if (!open && !authorized(request.getHeaders().get("Authorization"))) {
                refused = new ServiceException(
                        ServiceException.Kind.UNAUTHORIZED,
                        "this server needs a bearer token: send Authorization: Bearer TOKEN");
            } else if (!limit.tryAcquire()) {
                refused = busy(limit == streams);
            } else {
                try {
                    workers.execute(() -> serve(request, response, callback, limit));
                } catch (RejectedExecutionException e) {
                    limit.release();
                    refused = busy(limit == streams);
                }
            }
            if (refused != null) {
                service.metrics().answered(Replies.errorAsync(response, callback, refused));
            }
            return true;
        }
    }

    private ServiceException busy(boolean stream) {
        return new ServiceException(
                ServiceException.Kind.BUSY,
                "the server handles "
                        + (stream
                                ? settings.maxEventStreams() + " event streams"
                                : settings.maxRequests() + " requests")
                        + " at once, its limit; try again shortly");
    }

    /** One request on a worker: read, route, answer (blocking), then give its place back. */
    private void serve(org.eclipse.jetty.server.Request jetty, Response response, Callback callback, Semaphore limit) {
        int status = 500;
        try {
            status = Replies.write(
                    response,
                    api.handle(new Request(jetty, response, settings.maxBodyBytes(), settings.bodyTimeout())));
        } catch (ServiceException e) {
            status = Replies.error(response, e);
        } catch (IOException e) {
            status = 499; // the client went away
        } catch (RuntimeException | Error e) {
            log.warn("request failed unexpectedly: {}", e.toString());
            status = Replies.error(
                    response,
                    new ServiceException(
                            ServiceException.Kind.INTERNAL,
                            "the server failed unexpectedly: " + e.getClass().getSimpleName()));
        } finally {
            limit.release();
            service.metrics().answered(status);
            callback.succeeded();
        }
    }

    /** Whether {@code header} carries the token (always, when there is none), compared in constant time. */
    private boolean authorized(String header) {
        if (tokenHash == null) {
            return true;
        }
        String given = header != null && header.regionMatches(true, 0, "Bearer ", 0, 7)
                ? header.substring(7).strip()
                : "";
        return MessageDigest.isEqual(sha256(given), tokenHash);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
