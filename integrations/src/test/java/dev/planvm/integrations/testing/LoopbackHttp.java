package dev.planvm.integrations.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** A real HTTP server on 127.0.0.1 for the tests: answers per path prefix, records every request. */
public final class LoopbackHttp implements AutoCloseable {

    /** A request as the server saw it. */
    public record Seen(String method, String uri, Map<String, List<String>> headers, String body) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** How to answer. */
    public interface Answer {
        void answer(HttpExchange exchange, Seen request) throws IOException;
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    public final List<Seen> seen = new CopyOnWriteArrayList<>();

    public LoopbackHttp() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Seen request = new Seen(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath()
                            + (exchange.getRequestURI().getRawQuery() == null
                                    ? ""
                                    : "?" + exchange.getRequestURI().getRawQuery()),
                    Map.copyOf(exchange.getRequestHeaders()),
                    body);
            seen.add(request);
            String path = exchange.getRequestURI().getPath();
            Answer answer = answers.entrySet().stream()
                    .filter(e -> path.startsWith(e.getKey()))
                    .max(Map.Entry.comparingByKey((a, b) -> a.length() - b.length()))
                    .map(Map.Entry::getValue)
                    .orElse((ex, r) -> send(ex, 404, "text/plain", "no route"));
            try {
                answer.answer(exchange, request);
            } catch (IOException e) {
                // the client went away (a timeout test)
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    public LoopbackHttp on(String pathPrefix, Answer answer) {
        answers.put(pathPrefix, answer);
        return this;
    }

    public Seen last() {
        return seen.get(seen.size() - 1);
    }

    public static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    public static Answer json(int status, String body) {
        return (exchange, request) -> send(exchange, status, "application/json", body);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
