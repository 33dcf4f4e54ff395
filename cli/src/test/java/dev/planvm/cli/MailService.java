package dev.planvm.cli;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A mail service on loopback for the approval tests: {@code POST /send} keeps the body it was sent and answers
 * {@code {"status": "sent"}}; {@link #sent()} is what reached it (nothing, when a call waits for approval).
 */
final class MailService implements AutoCloseable {

    private final HttpServer server;
    private final List<String> sent = new CopyOnWriteArrayList<>();

    MailService() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/send", exchange -> {
            sent.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body = "{\"status\": \"sent\"}".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** The bodies sent, in order. */
    List<String> sent() {
        return sent;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
