package dev.planvm.knowledge.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;

/**
 * An OpenAI-compatible {@code POST /v1/embeddings} server on 127.0.0.1 for tests. Its vectors are bags of
 * words hashed into {@value #DIMENSION} dimensions, so texts sharing words are near. It can be told to
 * fail: answer an HTTP status with a body, wait before answering, or send an oversized answer.
 */
public final class FakeEmbeddingsServer implements AutoCloseable {

    public static final int DIMENSION = 64;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpServer server;
    public final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
    public final List<String> authorizations = Collections.synchronizedList(new ArrayList<>());
    private volatile int status = 200;
    private volatile String errorBody = "";
    private volatile long delayMillis;
    private volatile int oversizedBytes;
    private volatile long trickleMillis;

    public FakeEmbeddingsServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/embeddings", this::handle);
        server.setExecutor(Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "fake-embeddings");
            thread.setDaemon(true);
            return thread;
        }));
        server.start();
    }

    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    /** Answers every request with this status and body from now on (200 restores normal answers). */
    public void fail(int status, String body) {
        this.status = status;
        this.errorBody = body;
    }

    public void delay(long millis) {
        this.delayMillis = millis;
    }

    /** Answers with a body of this many bytes (not JSON) from now on; 0 restores normal answers. */
    public void oversized(int bytes) {
        this.oversizedBytes = bytes;
    }

    /** Answers 200 at once, then trickles its body a space every {@code millis} (for a minute) from now on. */
    public void trickle(long millis) {
        this.trickleMillis = millis;
    }

    /** The bag-of-words vector the server gives {@code text}. */
    public static float[] vector(String text) {
        float[] vector = new float[DIMENSION];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (word.length() > 2) {
                vector[Math.floorMod(word.hashCode(), DIMENSION)] += 1;
            }
        }
        vector[DIMENSION - 1] += 0.01f;
        return vector;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try {
            JsonNode request = MAPPER.readTree(exchange.getRequestBody());
            requests.add(request);
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            if (delayMillis > 0) {
                try {
                    Thread.sleep(delayMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (trickleMillis > 0) {
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream out = exchange.getResponseBody()) {
                    for (long waited = 0; waited < 60_000; waited += trickleMillis) {
                        out.write(' ');
                        out.flush();
                        Thread.sleep(trickleMillis);
                    }
                } catch (IOException | InterruptedException gone) {
                    // the client gave up
                }
                return;
            }
            if (oversizedBytes > 0) {
                exchange.sendResponseHeaders(200, oversizedBytes);
                try (OutputStream out = exchange.getResponseBody()) {
                    byte[] block = new byte[8192];
                    java.util.Arrays.fill(block, (byte) ' ');
                    for (int sent = 0; sent < oversizedBytes; sent += block.length) {
                        out.write(block, 0, Math.min(block.length, oversizedBytes - sent));
                    }
                }
                return;
            }
            if (status != 200) {
                send(exchange, status, errorBody);
                return;
            }
            ObjectNode answer = MAPPER.createObjectNode().put("object", "list");
            ArrayNode data = answer.putArray("data");
            JsonNode input = request.get("input");
            int index = 0;
            for (JsonNode text :
                    input.isArray() ? input : MAPPER.createArrayNode().add(input)) {
                ObjectNode item = data.addObject().put("object", "embedding").put("index", index++);
                ArrayNode embedding = item.putArray("embedding");
                for (float v : vector(text.asText())) {
                    embedding.add(v);
                }
            }
            answer.put("model", request.path("model").asText());
            answer.putObject("usage").put("prompt_tokens", 1).put("total_tokens", 1);
            send(exchange, 200, answer.toString());
        } finally {
            exchange.close();
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
