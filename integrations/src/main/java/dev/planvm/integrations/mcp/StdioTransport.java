package dev.planvm.integrations.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The MCP stdio transport: the server is a child process speaking newline-delimited JSON-RPC on its
 * stdin and stdout. Written here rather than taken from the SDK's {@code StdioClientTransport}
 * because planvm needs three things that one does not give: the child's environment is exactly what
 * the configuration says (no inherited variables beyond the given environment), a server that exits is noticed at
 * once (the SDK's session would wait for the request timeout) with its exit code and the last lines
 * of its stderr for the message, and stderr is kept rather than logged at INFO. Lines are bounded
 * ({@link #MAX_LINE} characters); a server that sends a longer one is stopped.
 */
final class StdioTransport implements McpClientTransport {

    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    /** The longest message line read from a server (16 Mi characters). */
    static final int MAX_LINE = 16 << 20;

    private static final int STDERR_LINES = 20;
    private static final int STDERR_LINE_LENGTH = 500;

    private final String server;
    private final List<String> command;
    private final Map<String, String> environment;
    private final Path directory;
    private final McpJsonMapper mapper;
    private final Consumer<StdioTransport> onExit;
    private final Deque<String> stderr = new ArrayDeque<>();
    private volatile Process process;
    private volatile boolean closing;
    private volatile String exitReason;
    private OutputStream stdin;

    /**
     * @param environment the child's whole environment
     * @param onExit      told once when the server's stdout ends (it exited or closed it)
     */
    StdioTransport(
            String server,
            List<String> command,
            Map<String, String> environment,
            Path directory,
            McpJsonMapper mapper,
            Consumer<StdioTransport> onExit) {
        this.server = server;
        this.command = List.copyOf(command);
        this.environment = Map.copyOf(environment);
        this.directory = directory;
        this.mapper = mapper;
        this.onExit = onExit;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        // Started on the subscribing thread (the session's constructor), so the process runs before the
        // first message (initialize) is sent.
        return Mono.fromRunnable(() -> start(handler));
    }

    private void start(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            String why = String.valueOf(e.getMessage());
            int error = why.lastIndexOf("error=");
            int comma = error < 0 ? -1 : why.indexOf(", ", error);
            exitReason = "cannot run '" + command.get(0) + "': " + (comma < 0 ? why : why.substring(comma + 2));
            throw new IllegalStateException(exitReason, e);
        }
        stdin = process.getOutputStream();
        thread("out", () -> readMessages(process.getInputStream(), handler));
        thread("err", () -> readStderr(process.getErrorStream()));
    }

    private void thread(String stream, Runnable body) {
        Thread thread = new Thread(body, "planvm-mcp-" + server + "-" + stream);
        thread.setDaemon(true);
        thread.start();
    }

    private void readMessages(
            InputStream out, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (Reader reader = new InputStreamReader(out, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = reader.read()) != -1) {
                if (c == '\n') {
                    deliver(line.toString(), handler);
                    line.setLength(0);
                } else if (line.length() >= MAX_LINE) {
                    exitReason = "it sent a message longer than " + (MAX_LINE >> 20) + " Mi characters";
                    process.destroyForcibly();
                    break;
                } else {
                    line.append((char) c);
                }
            }
        } catch (IOException e) {
            if (!closing) {
                LOG.debug("MCP server '{}': reading stdout failed", server, e);
            }
        } finally {
            stdoutEnded();
        }
    }

    private void deliver(
            String line, Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        String text = line.strip();
        if (text.isEmpty()) {
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, text);
        } catch (IOException | RuntimeException e) {
            LOG.debug("MCP server '{}' wrote a line on stdout that is not a JSON-RPC message; ignored", server);
            return;
        }
        handler.apply(Mono.just(message))
                .subscribe(
                        ignored -> {}, error -> LOG.debug("MCP server '{}': handling a message failed", server, error));
    }

    private void readStderr(InputStream err) {
        try (Reader reader = new InputStreamReader(err, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = reader.read()) != -1) {
                if (c == '\n') {
                    keep(line.toString());
                    line.setLength(0);
                } else if (line.length() < STDERR_LINE_LENGTH) {
                    line.append((char) c);
                }
            }
            if (line.length() > 0) {
                keep(line.toString());
            }
        } catch (IOException e) {
            // the server is gone; what it wrote is kept
        }
    }

    private void keep(String line) {
        LOG.debug("MCP server '{}' stderr: {}", server, line);
        synchronized (stderr) {
            if (stderr.size() == STDERR_LINES) {
                stderr.removeFirst();
            }
            stderr.addLast(line);
        }
    }

    private void stdoutEnded() {
        Process current = process;
        if (current != null && exitReason == null) {
            try {
                if (current.waitFor(1, TimeUnit.SECONDS)) {
                    exitReason = "it exited with code " + current.exitValue();
                } else {
                    exitReason = "it closed its stdout";
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exitReason = "it closed its stdout";
            }
        }
        if (!closing) {
            onExit.accept(this);
        }
    }

    /** Whether the server's stdout has ended (it exited, or was stopped). */
    boolean exited() {
        return exitReason != null;
    }

    /** Why the server is gone, with the last lines of its stderr; null while it runs. */
    String exitDescription() {
        if (exitReason == null) {
            return null;
        }
        String tail = stderrTail();
        return exitReason + (tail.isEmpty() ? "" : "; its stderr ended with: " + tail);
    }

    /** The last lines the server wrote on stderr, joined with " | ". */
    String stderrTail() {
        List<String> lines;
        synchronized (stderr) {
            lines = new ArrayList<>(stderr);
        }
        lines.removeIf(String::isBlank);
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        OutputStream out = stdin;
        if (out == null || exitReason != null) {
            return Mono.error(new IOException("MCP server '" + server + "' is not running"));
        }
        try {
            byte[] bytes = (mapper.writeValueAsString(message)
                                    .replace("\n", "\\n")
                                    .replace("\r", "\\r") + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
            return Mono.empty();
        } catch (IOException e) {
            return Mono.error(
                    new IOException("MCP server '" + server + "' does not read its stdin: " + e.getMessage(), e));
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(this::stop).subscribeOn(Schedulers.boundedElastic());
    }

    /** Stops the server: closes its stdin, then TERM, then KILL (its child processes too); waits at most ~4 s. */
    void stop() {
        closing = true;
        Process current = process;
        if (current == null) {
            return;
        }
        try {
            OutputStream out = stdin;
            if (out != null) {
                try {
                    out.close();
                } catch (IOException ignored) {
                    // already closed by the server's exit
                }
            }
            if (!current.waitFor(1, TimeUnit.SECONDS)) {
                current.descendants().forEach(ProcessHandle::destroy);
                current.destroy();
                if (!current.waitFor(2, TimeUnit.SECONDS)) {
                    current.descendants().forEach(ProcessHandle::destroyForcibly);
                    current.destroyForcibly();
                    current.waitFor(1, TimeUnit.SECONDS);
                }
            }
        } catch (InterruptedException e) {
            current.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }
}
