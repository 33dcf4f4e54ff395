package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one bounded reader of untrusted HTTP answers, against a real server on 127.0.0.1. */
class BoundedHttpTest {

    private HttpServer server;
    private final AtomicLong written = new AtomicLong();
    private final AtomicLong trickled = new AtomicLong();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/ok", exchange -> answer(exchange, 200, "{\"ok\": true}"));
        server.createContext("/error", exchange -> answer(exchange, 500, "e".repeat(1 << 20)));
        server.createContext("/trickle", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 600; i++) { // one space every 0.1 s: a minute in all
                    out.write(' ');
                    out.flush();
                    trickled.incrementAndGet();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException gone) {
                // the client hung up
            }
        });
        server.createContext("/huge", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            byte[] chunk = new byte[64 * 1024];
            try (OutputStream out = exchange.getResponseBody()) {
                for (int i = 0; i < 1024; i++) { // 64 MiB
                    out.write(chunk);
                    written.addAndGet(chunk.length);
                }
            } catch (IOException gone) {
                // the client hung up
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path))
                .build();
    }

    @Test
    void a_whole_answer_in_time_is_returned() throws Exception {
        HttpResponse<byte[]> response =
                BoundedHttp.send(client, get("/ok"), new BoundedHttp.Bounds(1024, 1024, Duration.ofSeconds(10)));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(new String(response.body(), StandardCharsets.UTF_8)).isEqualTo("{\"ok\": true}");
    }

    @Test
    void a_body_that_trickles_fails_at_the_deadline_of_the_whole_answer() {
        assertThatThrownBy(() -> BoundedHttp.send(
                        client, get("/trickle"), new BoundedHttp.Bounds(1 << 20, 1024, Duration.ofMillis(700))))
                .isInstanceOf(HttpTimeoutException.class)
                .hasMessage("no whole answer within 0.7 s");
        assertThat(trickled.get()).as("spaces sent before the client gave up").isLessThan(600);
    }

    @Test
    void a_body_past_the_cap_fails_without_being_read_to_the_end() {
        assertThatThrownBy(() -> BoundedHttp.send(
                        client, get("/huge"), new BoundedHttp.Bounds(1 << 20, 1024, Duration.ofSeconds(30))))
                .isInstanceOf(BoundedHttp.TooLarge.class)
                .hasMessage("the answer is larger than 1 MiB")
                .satisfies(e -> assertThat(((BoundedHttp.TooLarge) e).limit()).isEqualTo(1 << 20));
        assertThat(written.get()).as("bytes the server could write").isLessThan(32L << 20);
    }

    @Test
    void an_error_answers_body_is_cut_at_its_own_cap() throws Exception {
        HttpResponse<byte[]> response =
                BoundedHttp.send(client, get("/error"), new BoundedHttp.Bounds(16, 1000, Duration.ofSeconds(10)));
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).hasSize(1000);
    }
}
