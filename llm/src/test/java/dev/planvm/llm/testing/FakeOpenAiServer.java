package dev.planvm.llm.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * An OpenAI-compatible chat server on loopback for tests: {@code POST /v1/chat/completions} answers
 * with scripted replies, in order, and records every request body. When the script runs out it
 * answers HTTP 500 "no scripted reply left". A request with {@code "stream": true} is answered with
 * server-sent events ({@code chat.completion.chunk}s, then one with the usage, then {@code [DONE]}):
 * {@link #replyStreamed} scripts the pieces and their pace; a plain {@link #reply} is then sent as
 * one piece. Every answer reports {@link #usage} tokens. A {@code json_schema} response format sent with
 * {@code "strict": true} must follow OpenAI's strict rules ({@link StrictSchemaRules}), or the request is
 * answered 400 as OpenAI answers it. Thread-safe; close it to stop it.
 *
 * <pre>{@code
 * try (FakeOpenAiServer server = FakeOpenAiServer.start()) {
 *     server.reply("hello").replyStatus(500, "{\"error\":{\"message\":\"boom\"}}");
 *     ... OpenAiChatModel.builder().baseUrl(server.baseUrl()) ...
 *     server.requests();   // the JSON bodies received
 * }
 * }</pre>
 *
 * Free of JUnit on purpose: other modules reuse it through the test jar.
 */
public final class FakeOpenAiServer implements AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String PATH = "/v1/chat/completions";

    private final HttpServer server;
    private final ExecutorService executor;
    private final Queue<Reply> script = new ConcurrentLinkedQueue<>();
    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
    private final List<Headers> headers = new CopyOnWriteArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private volatile int promptTokens = 10;
    private volatile int completionTokens = 5;

    private FakeOpenAiServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /** Starts a server on 127.0.0.1 and an ephemeral port. */
    public static FakeOpenAiServer start() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
                Thread thread = new Thread(runnable, "fake-openai-server");
                thread.setDaemon(true);
                return thread;
            });
            FakeOpenAiServer fake = new FakeOpenAiServer(http, executor);
            http.createContext("/", fake::handle);
            http.setExecutor(executor);
            http.start();
            return fake;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake OpenAI server", e);
        }
    }

    /** The base URL to configure a client with: {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** Next, answer 200 with a chat completion whose message content is {@code content}. */
    public FakeOpenAiServer reply(String content) {
        return replyAfter(Duration.ZERO, content);
    }

    /** Next, wait {@code delay}, then answer like {@link #reply(String)}. */
    public FakeOpenAiServer replyAfter(Duration delay, String content) {
        Objects.requireNonNull(content, "content");
        return enqueue((exchange, request) -> {
            if (!sleep(delay)) {
                exchange.close();
                return;
            }
            if (request.path("stream").asBoolean(false)) {
                stream(exchange, request, List.of(content), Duration.ZERO);
            } else {
                send(exchange, 200, completion(request, content).toString(), Map.of());
            }
        });
    }

    /**
     * Next, answer 200 with a chat completion that calls the tool {@code name} with {@code arguments}
     * (JSON text), as a model using tools does (not streamed).
     */
    public FakeOpenAiServer replyToolCall(String name, String arguments) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        return enqueue((exchange, request) -> {
            ObjectNode completion = completion(request, null);
            ObjectNode choice = (ObjectNode) completion.path("choices").get(0);
            ObjectNode call =
                    ((ObjectNode) choice.path("message")).putArray("tool_calls").addObject();
            call.put("id", "call_" + ids.incrementAndGet());
            call.put("type", "function");
            call.putObject("function").put("name", name).put("arguments", arguments);
            choice.put("finish_reason", "tool_calls");
            send(exchange, 200, completion.toString(), Map.of());
        });
    }

    /** The usage every later answer reports (default 10 prompt and 5 completion tokens). */
    public FakeOpenAiServer usage(int prompt, int completion) {
        this.promptTokens = prompt;
        this.completionTokens = completion;
        return this;
    }

    /**
     * Next, answer a streaming request with server-sent events: wait {@code gap} before each piece,
     * send it as a {@code chat.completion.chunk}, then the usage and {@code [DONE]}.
     */
    public FakeOpenAiServer replyStreamed(List<String> pieces, Duration gap) {
        List<String> copy = List.copyOf(pieces);
        return enqueue((exchange, request) -> stream(exchange, request, copy, gap));
    }

    /**
     * Next, stream {@code pieces} one at a time: each piece after the first is sent only once {@code delivered}
     * gets a permit (the client saw the piece before); without one in a minute the connection is dropped. A
     * client that holds the pieces back until the answer ends never gets the answer.
     */
    public FakeOpenAiServer replyStreamedStepwise(List<String> pieces, java.util.concurrent.Semaphore delivered) {
        List<String> copy = List.copyOf(pieces);
        return enqueue((exchange, request) -> {
            startEvents(exchange);
            try (OutputStream out = exchange.getResponseBody()) {
                event(out, chunk(request, "", null).toString());
                for (int i = 0; i < copy.size(); i++) {
                    if (i > 0 && !delivered.tryAcquire(60, java.util.concurrent.TimeUnit.SECONDS)) {
                        return; // not hung: the piece before never reached the client
                    }
                    event(out, chunk(request, copy.get(i), null).toString());
                }
                event(out, chunk(request, null, "stop").toString());
                ObjectNode usage = chunk(request, null, null);
                usage.putArray("choices");
                usage.set("usage", usage());
                event(out, usage.toString());
                event(out, "[DONE]");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Next, stream {@code content} in pieces of {@code pieceLength} characters, {@code gap} apart. */
    public FakeOpenAiServer replyStreamed(String content, int pieceLength, Duration gap) {
        List<String> pieces = new java.util.ArrayList<>();
        for (int i = 0; i < content.length(); i += pieceLength) {
            pieces.add(content.substring(i, Math.min(content.length(), i + pieceLength)));
        }
        return replyStreamed(pieces, gap);
    }

    /** Next, stream {@code pieces} ({@code gap} apart), then close the connection without finishing the answer. */
    public FakeOpenAiServer replyStreamedThenDrop(List<String> pieces, Duration gap) {
        List<String> copy = List.copyOf(pieces);
        return enqueue((exchange, request) -> {
            startEvents(exchange);
            OutputStream out = exchange.getResponseBody();
            for (String piece : copy) {
                if (!sleep(gap)) {
                    return;
                }
                event(out, chunk(request, piece, null).toString());
            }
            out.close();
        });
    }

    /** Next, answer with this status and body (JSON content type). */
    public FakeOpenAiServer replyStatus(int status, String body) {
        return replyStatus(status, body, Map.of());
    }

    /** Next, answer with this status, body and extra headers (e.g. {@code Retry-After}). */
    public FakeOpenAiServer replyStatus(int status, String body, Map<String, String> headers) {
        Map<String, String> copy = Map.copyOf(headers);
        return enqueue((exchange, request) -> send(exchange, status, body, copy));
    }

    /**
     * Next, answer 200 with a chat completion, but send its body one byte every {@code every}: the
     * headers arrive at once, the body trickles (a 200-byte body takes 200 × {@code every}).
     */
    public FakeOpenAiServer replyTrickling(Duration every) {
        return enqueue((exchange, request) -> {
            byte[] body = completion(request, "slow").toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            OutputStream out = exchange.getResponseBody();
            for (byte b : body) {
                out.write(b);
                out.flush();
                if (!sleep(every)) {
                    return;
                }
            }
            out.close();
        });
    }

    /**
     * Next, answer 200 with a chat completion whose content is {@code bytes} bytes of "x", streamed
     * in chunks (never held in memory), so a huge answer costs the server nothing.
     */
    public FakeOpenAiServer replyHuge(long bytes) {
        return enqueue((exchange, request) -> {
            ObjectNode completion = completion(request, "CONTENT");
            String[] around = completion.toString().split("CONTENT");
            byte[] head = around[0].getBytes(StandardCharsets.UTF_8);
            byte[] tail = around[1].getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, head.length + bytes + tail.length);
            byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(head);
                for (long sent = 0; sent < bytes; sent += chunk.length) {
                    out.write(chunk, 0, (int) Math.min(chunk.length, bytes - sent));
                }
                out.write(tail);
            }
        });
    }

    /** Next, close the connection without answering. */
    public FakeOpenAiServer closeConnection() {
        // Closing an exchange before sending headers closes its connection.
        return enqueue((exchange, request) -> exchange.close());
    }

    /** Every request body received, in order (a body that is not JSON is kept as a text node). */
    public List<JsonNode> requests() {
        return List.copyOf(requests);
    }

    /** How many requests arrived. */
    public int requestCount() {
        return requests.size();
    }

    /**
     * The first value of header {@code name} (any case) in every request, in order; "" where a
     * request had none. {@code headers("Authorization")} shows the keys sent.
     */
    public List<String> headers(String name) {
        return headers.stream()
                .map(h -> Objects.requireNonNullElse(h.getFirst(name), ""))
                .collect(Collectors.toUnmodifiableList());
    }

    /** How many scripted replies are still unused. */
    public int remainingReplies() {
        return script.size();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** One scripted answer to one request. */
    @FunctionalInterface
    private interface Reply {
        void send(HttpExchange exchange, JsonNode request) throws IOException;
    }

    private FakeOpenAiServer enqueue(Reply reply) {
        script.add(reply);
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            if (!"POST".equals(exchange.getRequestMethod())
                    || !PATH.equals(exchange.getRequestURI().getPath())) {
                send(exchange, 404, error("the fake OpenAI server only serves POST " + PATH), Map.of());
                return;
            }
            JsonNode request = parse(new String(bytes, StandardCharsets.UTF_8));
            headers.add(copy(exchange.getRequestHeaders()));
            requests.add(request);
            JsonNode jsonSchema = request.at("/response_format/json_schema");
            String strictProblem = jsonSchema.path("strict").asBoolean(false)
                    ? StrictSchemaRules.problem(jsonSchema.path("schema"))
                    : null;
            if (strictProblem != null) {
                send(
                        exchange,
                        400,
                        error("Invalid schema for response_format '"
                                + jsonSchema.path("name").asText() + "': " + strictProblem),
                        Map.of());
                return;
            }
            Reply reply = script.poll();
            if (reply == null) {
                send(exchange, 500, error("no scripted reply left (request " + requests.size() + ")"), Map.of());
            } else {
                reply.send(exchange, request);
            }
        } catch (IOException e) {
            // The client went away (e.g. it timed out): nothing to answer.
        }
    }

    private ObjectNode completion(JsonNode request, String content) {
        ObjectNode completion = MAPPER.createObjectNode();
        completion.put("id", "chatcmpl-fake-" + ids.incrementAndGet());
        completion.put("object", "chat.completion");
        completion.put("created", System.currentTimeMillis() / 1000);
        completion.put("model", request.path("model").asText("fake-model"));
        ObjectNode choice = completion.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", content);
        choice.put("finish_reason", "stop");
        completion.set("usage", usage());
        return completion;
    }

    private void stream(HttpExchange exchange, JsonNode request, List<String> pieces, Duration gap) throws IOException {
        startEvents(exchange);
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, chunk(request, "", null).toString());
            for (String piece : pieces) {
                if (!sleep(gap)) {
                    return;
                }
                event(out, chunk(request, piece, null).toString());
            }
            event(out, chunk(request, null, "stop").toString());
            ObjectNode usage = chunk(request, null, null);
            usage.putArray("choices");
            usage.set("usage", usage());
            event(out, usage.toString());
            event(out, "[DONE]");
        }
    }

    private static void startEvents(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A {@code chat.completion.chunk} with {@code content} (null: none) and {@code finishReason} (null: none yet). */
    private ObjectNode chunk(JsonNode request, String content, String finishReason) {
        ObjectNode chunk = MAPPER.createObjectNode();
        chunk.put("id", "chatcmpl-fake-" + ids.get());
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", System.currentTimeMillis() / 1000);
        chunk.put("model", request.path("model").asText("fake-model"));
        ObjectNode choice = chunk.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (content != null) {
            delta.put("role", "assistant");
            delta.put("content", content);
        }
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return chunk;
    }

    private ObjectNode usage() {
        ObjectNode usage = MAPPER.createObjectNode();
        usage.put("prompt_tokens", promptTokens);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", promptTokens + completionTokens);
        return usage;
    }

    private static String error(String message) {
        ObjectNode body = MAPPER.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", "fake_server_error");
        return body.toString();
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

    private static Headers copy(Headers original) {
        Headers copy = new Headers();
        copy.putAll(original);
        return copy;
    }

    private static JsonNode parse(String body) {
        try {
            return MAPPER.readTree(body);
        } catch (IOException e) {
            return TextNode.valueOf(body);
        }
    }

    /** Sleeps; false when interrupted (the server is closing). */
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
}
