package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that take their time, against a real server on 127.0.0.1 over raw sockets: a request head that
 * trickles in is cut at the header deadline, a body that trickles in is answered 408, a kept-alive connection
 * may wait quietly between requests, and connections beyond the cap are not taken until one ends. (The child
 * JVM test with hundreds of slow clients and thread counts is {@code ServeSlowClientsTest} in the CLI.)
 */
class SlowClientsTest {

    @TempDir
    Path dir;

    private ServerFixture start(ServerSettings settings) throws IOException {
        return new ServerFixture(dir.resolve("runs.db"), ServiceSettings.DEFAULT, settings);
    }

    @Test
    void a_request_head_that_trickles_in_is_cut_at_the_header_deadline() throws Exception {
        try (ServerFixture fixture = start(
                ServerSettings.builder().headerTimeout(Duration.ofSeconds(1)).build())) {
            try (Socket socket = connect(fixture)) {
                long start = System.nanoTime();
                write(socket, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + fixture.server.port() + "\r\n");
                boolean cut = false;
                for (int line = 0; line < 300 && !cut; line++) { // one header line every 200 ms, for up to a minute
                    Thread.sleep(200);
                    try {
                        write(socket, "X-Slow-" + line + ": still here\r\n");
                        cut = ended(socket);
                    } catch (IOException reset) {
                        cut = true;
                    }
                }
                assertThat(cut).as("cut (not hung)").isTrue();
                // not before the deadline; no upper bound: a busy machine may cut it late
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                        .as("ms until cut")
                        .isGreaterThanOrEqualTo(900L);
            }
            assertThat(fixture.server.slowClientsCut()).isEqualTo(1);
            assertThat(fixture.get("/healthz").status()).isEqualTo(200);
        }
    }

    @Test
    void a_connection_that_sends_nothing_is_cut_at_the_header_deadline_too() throws Exception {
        try (ServerFixture fixture = start(ServerSettings.builder()
                        .headerTimeout(Duration.ofSeconds(1))
                        .build());
                Socket socket = connect(fixture)) {
            long start = System.nanoTime();
            socket.setSoTimeout(60_000); // not hung
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(fixture.server.slowClientsCut())
                    .as("ended by the header deadline")
                    .isEqualTo(1);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .as("not before the deadline")
                    .isGreaterThanOrEqualTo(900L);
        }
    }

    @Test
    void a_kept_alive_connection_may_wait_quietly_between_requests() throws Exception {
        try (ServerFixture fixture = start(ServerSettings.builder()
                        .headerTimeout(Duration.ofSeconds(1))
                        .build());
                Socket socket = connect(fixture)) {
            String request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:" + fixture.server.port() + "\r\n\r\n";
            write(socket, request);
            assertThat(readAnswer(socket)).startsWith("HTTP/1.1 200");
            Thread.sleep(2_500); // quiet for longer than the header deadline, shorter than the idle timeout
            write(socket, request);
            assertThat(readAnswer(socket)).startsWith("HTTP/1.1 200");
            assertThat(fixture.server.slowClientsCut()).isZero();
        }
    }

    @Test
    void a_body_that_trickles_in_past_the_body_timeout_is_answered_408() throws Exception {
        try (ServerFixture fixture = start(ServerSettings.builder()
                        .bodyTimeout(Duration.ofSeconds(1))
                        .build());
                Socket socket = connect(fixture)) {
            long start = System.nanoTime();
            write(
                    socket,
                    "POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1:" + fixture.server.port()
                            + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{");
            String answer = null;
            for (int i = 0; i < 99 && answer == null; i++) { // one byte every 300 ms: the body would take 30 s
                Thread.sleep(300);
                try {
                    write(socket, " ");
                } catch (IOException closed) {
                    // the answer is already there
                }
                socket.setSoTimeout(1);
                try {
                    int first = socket.getInputStream().read();
                    if (first >= 0) {
                        socket.setSoTimeout(5_000);
                        answer = (char) first + readAnswer(socket);
                    }
                } catch (SocketTimeoutException notYet) {
                    // still reading the body
                }
            }
            assertThat(answer).as("answered before the body was whole").isNotNull();
            assertThat(answer).startsWith("HTTP/1.1 408").contains("\"request_timeout\"");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                    .as("not before the deadline (no upper bound: a busy machine may answer late)")
                    .isGreaterThanOrEqualTo(900L);
        }
    }

    @Test
    void connections_beyond_the_cap_are_not_taken_until_one_ends() throws Exception {
        try (ServerFixture fixture = start(ServerSettings.builder()
                .maxConnections(4)
                .headerTimeout(Duration.ofSeconds(2))
                .build())) {
            List<Socket> quiet = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    quiet.add(connect(fixture)); // the OS accepts them all; the server takes 4
                }
                Thread.sleep(500);
                assertThat(fixture.server.connections()).isEqualTo(4);
                long asked = System.nanoTime();
                assertThat(fixture.get("/healthz").status())
                        .as("answered once the quiet ones are cut")
                        .isEqualTo(200);
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked))
                        .as("ms the ninth client waited")
                        .isGreaterThan(1_000L);
                assertThat(fixture.server.connections()).isLessThanOrEqualTo(4);
            } finally {
                for (Socket socket : quiet) {
                    socket.close();
                }
            }
        }
    }

    private static Socket connect(ServerFixture fixture) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), fixture.server.port());
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static void write(Socket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Whether the server ended the connection (end of stream or reset), looking for a moment only. */
    private static boolean ended(Socket socket) throws IOException {
        socket.setSoTimeout(1);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    /** One answer with a Content-Length body, read to its end. */
    private static String readAnswer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                return head.toString();
            }
            head.append((char) c);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).strip());
            }
        }
        byte[] body = in.readNBytes(length);
        return head + new String(body, StandardCharsets.UTF_8);
    }
}
