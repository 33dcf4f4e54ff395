package dev.planvm.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stdio framing in front of the MCP SDK's stdio transport, which stops reading for good at the first
 * line it cannot read (and so never sees the end of input). Here each line of {@code in} is read (at most
 * {@link #MAX_LINE_BYTES}) and checked first: a line that is not JSON is answered with the JSON-RPC parse
 * error (-32700), JSON that is not one JSON-RPC message with invalid request (-32600, with the message's
 * id when it has one); only good lines reach the SDK ({@link #input}). The end of {@code in} ends the
 * SDK's input and completes {@link #ended}.
 */
final class StdioLines {

    private static final Logger log = LoggerFactory.getLogger(StdioLines.class);
    /** The longest line read (the SDK's own limit); the rest of a longer line is skipped and it is refused. */
    static final int MAX_LINE_BYTES = 16 << 20;

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;

    private final InputStream in;
    private final OutputStream out;
    private final ObjectMapper mapper;
    private final McpJsonMapper json;
    private final Queue input = new Queue();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    StdioLines(InputStream in, OutputStream out, ObjectMapper mapper, McpJsonMapper json) {
        this.in = in;
        this.out = out;
        this.mapper = mapper;
        this.json = json;
    }

    /** What the SDK reads: the good lines, then the end. */
    InputStream input() {
        return input;
    }

    /** Completes when {@code in} ended (or could not be read any more). */
    CompletableFuture<Void> ended() {
        return ended;
    }

    /** Starts reading {@code in} on a daemon thread of its own. */
    StdioLines start() {
        Thread reader = new Thread(this::pump, "planvm-mcp-stdin");
        reader.setDaemon(true);
        reader.start();
        return this;
    }

    private void pump() {
        try {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false;
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                int start = 0;
                for (int i = 0; i < n; i++) {
                    if (buffer[i] != '\n') {
                        continue;
                    }
                    if (!tooLong) {
                        line.write(buffer, start, i - start);
                    }
                    handle(line.toByteArray(), tooLong);
                    line.reset();
                    tooLong = false;
                    start = i + 1;
                }
                if (!tooLong) {
                    line.write(buffer, start, n - start);
                    if (line.size() > MAX_LINE_BYTES) {
                        tooLong = true;
                        line.reset();
                    }
                }
            }
            if (tooLong || line.size() > 0) {
                handle(line.toByteArray(), tooLong);
            }
        } catch (IOException e) {
            log.warn("cannot read stdin any more: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            input.end();
            ended.complete(null);
        }
    }

    private void handle(byte[] bytes, boolean tooLong) throws InterruptedException {
        if (tooLong) {
            answer(null, INVALID_REQUEST, "Invalid Request: a message is at most " + MAX_LINE_BYTES + " bytes");
            return;
        }
        String line = new String(bytes, StandardCharsets.UTF_8).strip();
        if (line.isEmpty()) {
            return;
        }
        JsonNode message;
        try {
            message = mapper.readTree(line);
        } catch (JsonProcessingException e) {
            answer(null, PARSE_ERROR, "Parse error: " + e.getOriginalMessage());
            return;
        }
        if (message == null || !message.isObject()) {
            answer(
                    null,
                    INVALID_REQUEST,
                    "Invalid Request: a message is one JSON-RPC object (batches are not supported)");
            return;
        }
        try {
            McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
            JsonNode id = message.get("id");
            answer(
                    id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null,
                    INVALID_REQUEST,
                    "Invalid Request: not a JSON-RPC 2.0 request, notification or response");
            return;
        }
        input.put((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Writes a JSON-RPC error answer, one line, as the SDK writes its own (on the same stream, locked the same way). */
    private void answer(JsonNode id, int code, String message) {
        ObjectNode error = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0");
        error.set("id", id == null ? JsonNodeFactory.instance.nullNode() : id);
        error.putObject("error").put("code", code).put("message", message);
        try {
            byte[] bytes = (mapper.writeValueAsString(error) + "\n").getBytes(StandardCharsets.UTF_8);
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        } catch (IOException e) {
            log.warn("cannot answer on stdout: {}", e.getMessage());
        }
    }

    /** The lines the SDK reads, handed over through a small bounded queue. */
    private static final class Queue extends InputStream {
        private static final byte[] END = new byte[0];
        private final BlockingQueue<byte[]> lines = new ArrayBlockingQueue<>(64);
        private byte[] current = new byte[0];
        private int position;
        private volatile boolean ended;

        void put(byte[] line) throws InterruptedException {
            lines.put(line);
        }

        void end() {
            ended = true;
            lines.offer(END);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (position == current.length) {
                if (current == END) {
                    return -1;
                }
                try {
                    byte[] next = lines.poll(100, TimeUnit.MILLISECONDS);
                    if (next != null) {
                        current = next;
                        position = 0;
                    } else if (ended && lines.isEmpty()) {
                        current = END;
                        position = 0;
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while reading stdin");
                }
            }
            int n = Math.min(len, current.length - position);
            System.arraycopy(current, position, b, off, n);
            position += n;
            return n;
        }
    }
}
