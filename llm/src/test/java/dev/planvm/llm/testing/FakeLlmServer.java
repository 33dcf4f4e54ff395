package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A loopback fake of one LLM provider's API, speaking its {@link LlmWire}: requests the wire refuses are
 * answered with the provider's error (and kept in {@link #refusals()}); the others get the scripted replies,
 * in order — an answer (streamed when the request asks, as one piece), a streamed answer in pieces, an error,
 * a rate limit — and 500 when the script is out. Every answer counts 10 prompt and 5 completion tokens.
 * Free of JUnit: other modules reuse it through the test jar. Thread-safe; close it to stop it.
 */
public final class FakeLlmServer implements AutoCloseable {

    /** The key the fake wants unless told otherwise (long enough to be redacted as a secret). */
    public static final String KEY = "fake-key-0123456789abcdef";

    private final LlmWire wire;
    private final String key;
    private final HttpServer server;
    private final ExecutorService executor;
    private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<String> paths = new CopyOnWriteArrayList<>();
    private final List<Headers> headers = new CopyOnWriteArrayList<>();
    private final List<String> refusals = new CopyOnWriteArrayList<>();

    private FakeLlmServer(LlmWire wire, String key, HttpServer server, ExecutorService executor) {
        this.wire = wire;
        this.key = key;
        this.server = server;
        this.executor = executor;
    }

    /** Starts a fake of {@code wire} on 127.0.0.1 that wants {@link #KEY}. */
    public static FakeLlmServer start(LlmWire wire) {
        return start(wire, KEY);
    }

    /** Starts a fake of {@code wire} on 127.0.0.1 and an ephemeral port that wants {@code key}. */
    public static FakeLlmServer start(LlmWire wire, String key) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "fake-" + wire.provider());
                thread.setDaemon(true);
                return thread;
            });
            FakeLlmServer fake = new FakeLlmServer(wire, key, http, executor);
            http.createContext("/", fake::handle);
            http.setExecutor(executor);
            http.start();
            return fake;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake " + wire.provider() + " server", e);
        }
    }

    public LlmWire wire() {
        return wire;
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The provider's variables that point planvm here, and nothing else. */
    public Map<String, String> environment() {
        return wire.environment(origin(), key);
    }

    /** Next, answer with {@code text}. */
    public FakeLlmServer reply(String text) {
        Objects.requireNonNull(text, "text");
        return enqueue((exchange, request, path, query) -> {
            if (wire.streams(path, query, request)) {
                stream(exchange, request, List.of(text), Duration.ZERO);
            } else {
                send(exchange, 200, wire.answer(request, text, 10, 5).toString(), Map.of());
            }
        });
    }

    /** Next, stream {@code pieces}, {@code gap} apart. */
    public FakeLlmServer replyStreamed(List<String> pieces, Duration gap) {
        List<String> copy = List.copyOf(pieces);
        return enqueue((exchange, request, path, query) -> stream(exchange, request, copy, gap));
    }

    /** Next, stream {@code text} in pieces of {@code length} characters, {@code gap} apart. */
    public FakeLlmServer replyStreamed(String text, int length, Duration gap) {
        List<String> pieces = new java.util.ArrayList<>();
        for (int i = 0; i < text.length(); i += length) {
            pieces.add(text.substring(i, Math.min(text.length(), i + length)));
        }
        return replyStreamed(pieces, gap);
    }

    /** Next, answer {@code status} with the provider's error body saying {@code message}. */
    public FakeLlmServer replyError(int status, String message) {
        return enqueue((exchange, request, path, query) ->
                send(exchange, status, wire.error(status, message).toString(), Map.of()));
    }

    /** Next, answer the provider's way that its rate limit is reached, asking to wait {@code seconds}. */
    public FakeLlmServer replyRateLimited(int seconds) {
        LlmWire.RateLimit limit = wire.rateLimit(seconds);
        return enqueue((exchange, request, path, query) ->
                send(exchange, limit.status(), limit.body().toString(), limit.headers()));
    }

    /** The JSON bodies of the requests that reached the script (not refused), in order. */
    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** The paths of those requests. */
    public List<String> paths() {
        return List.copyOf(paths);
    }

    /** The first value of header {@code name} in each of those requests ("" when absent). */
    public List<String> headers(String name) {
        return headers.stream()
                .map(h -> Objects.requireNonNullElse(h.getFirst(name), ""))
                .toList();
    }

    /** Why requests were refused (status and message), in order: empty when the client spoke the wire. */
    public List<String> refusals() {
        return List.copyOf(refusals);
    }

    public int remainingReplies() {
        return script.size();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    @FunctionalInterface
    private interface Reply {
        void send(HttpExchange exchange, JsonNode request, String path, String query) throws IOException;
    }

    private FakeLlmServer enqueue(Reply reply) {
        script.add(reply);
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String query = exchange.getRequestURI().getRawQuery();
            JsonNode body;
            try {
                body = LlmWire.MAPPER.readTree(new String(bytes, StandardCharsets.UTF_8));
            } catch (IOException e) {
                body = null;
            }
            if (body == null || !body.isObject()) {
                refuse(exchange, new LlmWire.Refusal(400, "the body is not a JSON object"));
                return;
            }
            LlmWire.Refusal refusal =
                    wire.check(exchange.getRequestMethod(), path, query, exchange.getRequestHeaders(), body, key);
            if (refusal != null) {
                refuse(exchange, refusal);
                return;
            }
            requests.add(body);
            paths.add(path);
            Headers copy = new Headers();
            copy.putAll(exchange.getRequestHeaders());
            headers.add(copy);
            Reply reply = script.poll();
            if (reply == null) {
                send(exchange, 500, wire.error(500, "no scripted reply left").toString(), Map.of());
            } else {
                reply.send(exchange, body, path, query);
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private void refuse(HttpExchange exchange, LlmWire.Refusal refusal) throws IOException {
        refusals.add(refusal.status() + " " + refusal.message());
        send(
                exchange,
                refusal.status(),
                wire.error(refusal.status(), refusal.message()).toString(),
                Map.of());
    }

    private void stream(HttpExchange exchange, JsonNode request, List<String> pieces, Duration gap) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", wire.streamType());
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            wire.stream(LlmWire.stream(out, () -> sleep(gap)), request, pieces, 10, 5);
        }
    }

    private static void send(HttpExchange exchange, int status, String body, Map<String, String> headers)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static boolean sleep(Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            return true;
        }
        try {
            Thread.sleep(delay.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "FakeLlmServer[" + wire.provider() + " at " + origin() + "]";
    }
}
