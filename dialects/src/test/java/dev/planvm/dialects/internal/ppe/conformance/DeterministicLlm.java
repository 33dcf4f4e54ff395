package dev.planvm.dialects.internal.ppe.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The deterministic OpenAI-compatible LLM on loopback that both the PPE reference ({@code ai run}, when the
 * recordings are made) and planvm (when the conformance test replays them) talk to: the answer to a request is a
 * pure function of the request's <em>normal form</em> ({@link #normalForm}), so two engines that send the same
 * conversation get the same answers and go on the same way.
 *
 * <p>The normal form is what the comparison looks at: the messages (role and text, in order), {@code temperature},
 * {@code max_tokens}, {@code stop} (absent when empty), and what the answer is asked to be: {@code
 * response_format} {@code {"type": "json"}} or {@code {"type": "json", "schema": S}} (OpenAI's {@code json_object},
 * with the reference's {@code json_schema.schema} beside it, and {@code json_schema} both read as that), and
 * {@code choices} (the reference's {@code choice.items}; planvm asks the same with a JSON Schema {@code enum},
 * wrapped in an object's {@code value}). Fields either engine adds for itself (the reference's {@code
 * __debug}, message {@code name}s and {@code _fromIndex}, {@code stream}, {@code model}) are not part of it.
 *
 * <p>The answer: for choices, one of them; for JSON with a schema, a value that fits the schema; for JSON without
 * one, {@code {"answer": "..."}}; else a short text. Every choice is made from a SHA-256 of the normal form.
 *
 * <p>Only the JDK is used, so the recording command can start it as a single source file: {@code java
 * DeterministicLlm.java PORT LOG} (port 0: any; the port is printed on the first line; every request is
 * appended to LOG as one JSON line {@code {"normal": ..., "answer": ...}}).
 */
public final class DeterministicLlm implements AutoCloseable {

    private static final String CHAT = "/v1/chat/completions";
    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final HttpServer server;
    private final ExecutorService executor;
    private final Path log;
    private final List<Map<String, Object>> exchanges = new CopyOnWriteArrayList<>();

    private DeterministicLlm(HttpServer server, ExecutorService executor, Path log) {
        this.server = server;
        this.executor = executor;
        this.log = log;
    }

    /** Starts it on 127.0.0.1 at {@code port} (0: any free one); {@code log} (may be null) gets every exchange. */
    public static DeterministicLlm start(int port, Path log) {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
            ExecutorService executor = Executors.newFixedThreadPool(4, runnable -> {
                Thread thread = new Thread(runnable, "deterministic-llm");
                thread.setDaemon(true);
                return thread;
            });
            DeterministicLlm llm = new DeterministicLlm(http, executor, log);
            http.createContext("/", llm::handle);
            http.setExecutor(executor);
            http.start();
            return llm;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the deterministic LLM", e);
        }
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2) {
            System.err.println("usage: java DeterministicLlm.java PORT LOG");
            System.exit(2);
        }
        DeterministicLlm llm = start(Integer.parseInt(args[0]), Path.of(args[1]));
        System.out.println(llm.port());
        System.out.flush();
        Thread.currentThread().join();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** {@code http://127.0.0.1:PORT/v1}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port() + "/v1";
    }

    /** Every exchange so far, in order: {@code {"normal": ..., "answer": ...}}. */
    public List<Map<String, Object>> exchanges() {
        return List.copyOf(exchanges);
    }

    /** Forgets the exchanges so far. */
    public void clear() {
        exchanges.clear();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = exchange.getRequestBody().readNBytes(MAX_BODY);
            String path = exchange.getRequestURI().getPath();
            if ("GET".equals(exchange.getRequestMethod()) && path.endsWith("/models")) {
                send(
                        exchange,
                        "application/json",
                        "{\"object\":\"list\",\"data\":[{\"id\":\"fake\",\"object\":\"model\"}]}");
                return;
            }
            if (!"POST".equals(exchange.getRequestMethod()) || !CHAT.equals(path)) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            Object request = Json.parse(new String(bytes, StandardCharsets.UTF_8));
            if (!(request instanceof Map<?, ?> map)) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> body = (Map<String, Object>) map;
            Map<String, Object> normal = normalForm(body);
            String answer = answer(body);
            Map<String, Object> record = new LinkedHashMap<>();
            record.put("normal", normal);
            record.put("answer", answer);
            exchanges.add(record);
            if (log != null) {
                synchronized (this) {
                    try (Writer out = Files.newBufferedWriter(
                            log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
                        out.write(Json.write(record) + "\n");
                    }
                }
            }
            if (Boolean.TRUE.equals(body.get("stream"))) {
                stream(exchange, answer);
            } else {
                send(exchange, "application/json", Json.write(completion(answer)));
            }
        }
    }

    private static Map<String, Object> completion(String answer) {
        Map<String, Object> message = new LinkedHashMap<>();
        message.put("role", "assistant");
        message.put("content", answer);
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("message", message);
        choice.put("finish_reason", "stop");
        Map<String, Object> usage = new LinkedHashMap<>();
        usage.put("prompt_tokens", 10);
        usage.put("completion_tokens", 5);
        usage.put("total_tokens", 15);
        Map<String, Object> completion = new LinkedHashMap<>();
        completion.put("id", "chatcmpl-deterministic");
        completion.put("object", "chat.completion");
        completion.put("created", 0);
        completion.put("model", "fake");
        completion.put("choices", List.of(choice));
        completion.put("usage", usage);
        return completion;
    }

    private static void stream(HttpExchange exchange, String answer) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            event(out, chunk(Map.of("role", "assistant", "content", answer), null));
            event(out, chunk(Map.of(), "stop"));
            out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static String chunk(Map<String, Object> delta, String finish) {
        Map<String, Object> choice = new LinkedHashMap<>();
        choice.put("index", 0);
        choice.put("delta", delta);
        choice.put("finish_reason", finish);
        Map<String, Object> chunk = new LinkedHashMap<>();
        chunk.put("id", "chatcmpl-deterministic");
        chunk.put("object", "chat.completion.chunk");
        chunk.put("created", 0);
        chunk.put("model", "fake");
        chunk.put("choices", List.of(choice));
        return Json.write(chunk);
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange exchange, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    // ---- the normal form ----

    /** The request as the comparison sees it (see the class comment). */
    public static Map<String, Object> normalForm(Map<String, Object> request) {
        Map<String, Object> normal = new LinkedHashMap<>();
        List<Object> messages = new ArrayList<>();
        if (request.get("messages") instanceof List<?> list) {
            for (Object item : list) {
                if (item instanceof Map<?, ?> message) {
                    Map<String, Object> m = new LinkedHashMap<>();
                    m.put("role", String.valueOf(message.get("role")));
                    m.put("content", text(message.get("content")));
                    messages.add(m);
                }
            }
        }
        normal.put("messages", messages);
        if (request.get("temperature") instanceof BigDecimal t) {
            normal.put("temperature", t);
        }
        Object maxTokens =
                request.get("max_tokens") != null ? request.get("max_tokens") : request.get("max_completion_tokens");
        if (maxTokens instanceof BigDecimal m && m.signum() > 0) {
            normal.put("max_tokens", m);
        }
        Object stop = request.get("stop");
        if (stop instanceof String s) {
            normal.put("stop", List.of(s));
        } else if (stop instanceof List<?> l && !l.isEmpty()) {
            normal.put("stop", l);
        }
        Object schema = null;
        boolean json = false;
        if (request.get("response_format") instanceof Map<?, ?> format) {
            Object type = format.get("type");
            Object jsonSchema = format.get("json_schema") instanceof Map<?, ?> js ? js.get("schema") : null;
            if ("json_object".equals(type) || "json".equals(type)) {
                json = true;
                schema = jsonSchema;
            } else if ("json_schema".equals(type)) {
                json = true;
                schema = jsonSchema;
            }
        }
        List<?> choices = null;
        if (request.get("choice") instanceof Map<?, ?> choice && choice.get("items") instanceof List<?> items) {
            choices = items;
        }
        if (schema instanceof Map<?, ?> s && s.get("name") instanceof String) {
            Map<Object, Object> copy = new LinkedHashMap<>(s);
            copy.remove("name");
            schema = copy;
        }
        Object wrapped = wrappedValue(schema);
        if (wrapped instanceof Map<?, ?> inner && inner.get("enum") instanceof List<?> values && choices == null) {
            choices = values;
            json = false;
            schema = null;
        } else if (wrapped != null) {
            schema = wrapped;
        }
        if (json) {
            Map<String, Object> format = new LinkedHashMap<>();
            format.put("type", "json");
            if (schema != null) {
                format.put("schema", schema);
            }
            normal.put("response_format", format);
        }
        if (choices != null) {
            normal.put("choices", choices);
        }
        return normal;
    }

    /** The text of a message's content (a list of parts: their texts, joined). */
    private static String text(Object content) {
        if (content == null) {
            return "";
        }
        if (content instanceof List<?> parts) {
            StringBuilder text = new StringBuilder();
            for (Object part : parts) {
                if (part instanceof Map<?, ?> p && p.get("text") != null) {
                    text.append(p.get("text"));
                }
            }
            return text.toString();
        }
        return withoutMarks(content instanceof String s ? s : Json.write(content));
    }

    /** The text without the reference's invisible template marks (U+0002, and the run of signs between a pair). */
    static String withoutMarks(String text) {
        return text.replaceAll("\u0002[^\\x00-\\x7F\\s]+\u0002", "").replace("\u0002", "");
    }

    /**
     * The schema inside planvm's wrapping of a schema whose top level is not an object ({@code {"type":
     * "object", "properties": {"value": S}, "required": ["value"], "additionalProperties": false}}), else null.
     */
    private static Object wrappedValue(Object schema) {
        if (schema instanceof Map<?, ?> s
                && s.size() == 4
                && "object".equals(s.get("type"))
                && Boolean.FALSE.equals(s.get("additionalProperties"))
                && List.of("value").equals(s.get("required"))
                && s.get("properties") instanceof Map<?, ?> p
                && p.size() == 1
                && p.containsKey("value")) {
            return p.get("value");
        }
        return null;
    }

    // ---- the answer ----

    /** The answer to {@code request}: a pure function of its normal form (see the class comment). */
    public static String answer(Map<String, Object> request) {
        Map<String, Object> normal = normalForm(request);
        String hash = sha256(Json.write(seedForm(normal)));
        boolean wrappedAsked = request.get("response_format") instanceof Map<?, ?> f
                && f.get("json_schema") instanceof Map<?, ?> js
                && wrappedValue(js.get("schema")) != null;
        if (normal.get("choices") instanceof List<?> choices && !choices.isEmpty()) {
            Object pick = choices.get(index(hash, 0, choices.size()));
            return wrappedAsked ? Json.write(Map.of("value", pick)) : String.valueOf(pick);
        }
        if (normal.get("response_format") instanceof Map<?, ?> format) {
            Object schema = format.get("schema");
            if (schema == null) {
                return Json.write(Map.of("answer", "answer " + hash.substring(0, 8)));
            }
            Object value = generate(schema, hash, 0);
            return Json.write(wrappedAsked ? Map.of("value", value) : value);
        }
        return "answer " + hash.substring(0, 8);
    }

    /**
     * What an answer is made from: the normal form with its schema reduced to its shape ({@link #shape}), so that one
     * schema asked in two forms that mean the same answers — as the script writes it (the reference) or in OpenAI's
     * strict form (planvm: every object closed, every property required, optional ones nullable, keywords strict mode
     * refuses moved into the description) — gets the same answer.
     */
    private static Map<String, Object> seedForm(Map<String, Object> normal) {
        if (!(normal.get("response_format") instanceof Map<?, ?> format) || format.get("schema") == null) {
            return normal;
        }
        Map<String, Object> copy = new LinkedHashMap<>(normal);
        Map<String, Object> shaped = new LinkedHashMap<>();
        format.forEach((k, v) -> shaped.put(String.valueOf(k), "schema".equals(k) ? shape(v) : v));
        copy.put("response_format", shaped);
        return copy;
    }

    /** A schema's shape: its type (a nullable one as the type), properties, items, enum and const; nothing else. */
    private static Object shape(Object schema) {
        if (!(schema instanceof Map<?, ?> s)) {
            return schema;
        }
        Map<String, Object> shape = new LinkedHashMap<>();
        Object type = s.get("type");
        if (type instanceof List<?> types && types.size() == 2 && types.contains("null")) {
            type = types.stream().filter(t -> !"null".equals(t)).findFirst().orElse(null);
        }
        if (type != null) {
            shape.put("type", type);
        }
        if (s.get("properties") instanceof Map<?, ?> properties) {
            Map<String, Object> shapes = new LinkedHashMap<>();
            properties.forEach((k, v) -> shapes.put(String.valueOf(k), shape(v)));
            shape.put("properties", shapes);
        }
        if (s.get("items") != null) {
            shape.put("items", shape(s.get("items")));
        }
        for (String key : List.of("enum", "const")) {
            if (s.containsKey(key)) {
                shape.put(key, s.get(key));
            }
        }
        return shape;
    }

    /** A value that fits {@code schema}, its choices made from {@code hash}. */
    private static Object generate(Object schema, String hash, int depth) {
        if (!(schema instanceof Map<?, ?> s) || depth > 8) {
            return "text " + hash.substring(0, 8);
        }
        if (s.get("enum") instanceof List<?> values && !values.isEmpty()) {
            return values.get(index(hash, depth, values.size()));
        }
        if (s.containsKey("const")) {
            return s.get("const");
        }
        Object type = s.get("type");
        if (type instanceof List<?> types) {
            type = types.stream()
                    .<Object>map(t -> t)
                    .filter(t -> !"null".equals(t))
                    .findFirst()
                    .orElse("null");
        }
        if (type == null) {
            type = s.get("properties") instanceof Map ? "object" : s.get("items") != null ? "array" : "string";
        }
        String sub = sha256(hash + "/" + depth);
        return switch (String.valueOf(type)) {
            case "object" -> {
                Map<String, Object> object = new LinkedHashMap<>();
                if (s.get("properties") instanceof Map<?, ?> properties) {
                    for (Map.Entry<?, ?> property : properties.entrySet()) {
                        object.put(
                                String.valueOf(property.getKey()),
                                generate(property.getValue(), sha256(sub + property.getKey()), depth + 1));
                    }
                }
                yield object;
            }
            case "array" -> {
                List<Object> array = new ArrayList<>();
                if (s.get("items") instanceof Map<?, ?> items) {
                    array.add(generate(items, sub, depth + 1));
                }
                yield array;
            }
            case "number", "integer" -> BigDecimal.valueOf(index(sub, 0, 100));
            case "boolean" -> index(sub, 0, 2) == 0;
            case "null" -> null;
            default -> "text " + sub.substring(0, 8);
        };
    }

    private static int index(String hash, int salt, int size) {
        return new BigInteger(sha256(hash + "#" + salt).substring(0, 8), 16).intValue() % size;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (byte b : digest) {
                hex.append(String.format("%02x", b));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A small JSON reader and writer over maps (insertion order), lists, strings, {@link BigDecimal}s, booleans and
     * null; enough for OpenAI requests, and free of any library so this file runs on its own.
     */
    static final class Json {

        private final String text;
        private int at;

        private Json(String text) {
            this.text = text;
        }

        static Object parse(String text) {
            Json json = new Json(text);
            Object value = json.value(0);
            json.space();
            if (json.at != text.length()) {
                throw json.error("text after the value");
            }
            return value;
        }

        private Object value(int depth) {
            if (depth > 200) {
                throw error("nested too deeply");
            }
            space();
            if (at >= text.length()) {
                throw error("unexpected end");
            }
            char c = text.charAt(at);
            switch (c) {
                case '{' -> {
                    at++;
                    Map<String, Object> map = new LinkedHashMap<>();
                    space();
                    if (peek('}')) {
                        return map;
                    }
                    do {
                        space();
                        String key = string();
                        space();
                        expect(':');
                        map.put(key, value(depth + 1));
                        space();
                    } while (peek(','));
                    expect('}');
                    return map;
                }
                case '[' -> {
                    at++;
                    List<Object> list = new ArrayList<>();
                    space();
                    if (peek(']')) {
                        return list;
                    }
                    do {
                        list.add(value(depth + 1));
                        space();
                    } while (peek(','));
                    expect(']');
                    return list;
                }
                case '"' -> {
                    return string();
                }
                default -> {
                    if (text.startsWith("true", at)) {
                        at += 4;
                        return Boolean.TRUE;
                    }
                    if (text.startsWith("false", at)) {
                        at += 5;
                        return Boolean.FALSE;
                    }
                    if (text.startsWith("null", at)) {
                        at += 4;
                        return null;
                    }
                    int start = at;
                    while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
                        at++;
                    }
                    if (start == at) {
                        throw error("unexpected character");
                    }
                    return new BigDecimal(text.substring(start, at));
                }
            }
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("unterminated string");
                }
                char c = text.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            }
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private boolean peek(char c) {
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at " + at + ": " + what);
        }

        /** Compact JSON; map keys in insertion order. */
        static String write(Object value) {
            StringBuilder out = new StringBuilder();
            write(value, out);
            return out.toString();
        }

        private static void write(Object value, StringBuilder out) {
            if (value == null) {
                out.append("null");
            } else if (value instanceof String s) {
                quote(s, out);
            } else if (value instanceof BigDecimal d) {
                out.append(plain(d));
            } else if (value instanceof Number || value instanceof Boolean) {
                out.append(value);
            } else if (value instanceof Map<?, ?> map) {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    quote(String.valueOf(e.getKey()), out);
                    out.append(':');
                    write(e.getValue(), out);
                }
                out.append('}');
            } else if (value instanceof List<?> list) {
                out.append('[');
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(list.get(i), out);
                }
                out.append(']');
            } else {
                quote(String.valueOf(value), out);
            }
        }

        /** A number as JavaScript writes it: {@code 2}, {@code 0.3}, never {@code 2.0}. */
        private static String plain(BigDecimal d) {
            BigDecimal stripped = d.stripTrailingZeros();
            return stripped.scale() <= 0 ? stripped.toBigInteger().toString() : stripped.toPlainString();
        }

        private static void quote(String s, StringBuilder out) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }
}
