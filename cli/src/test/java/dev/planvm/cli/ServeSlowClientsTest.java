package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Slow clients against {@code planvm serve} in a child JVM with a small heap: a few hundred loopback
 * connections that send their request head one header line at a time (slowloris) neither pin a thread each
 * nor keep a normal client from being answered, and each is cut once its head has not arrived within
 * {@code --header-timeout}. On the JDK that runs the tests (17) and, when the machine has one, a JDK 21+
 * (where virtual threads exist).
 */
@Tag("slow") // soak: 300 slowloris clients against a child JVM (mvn -Pslow)
class ServeSlowClientsTest {

    private static final int SLOW_CLIENTS = 300;
    private static final int HEADER_TIMEOUT_SECONDS = 3;

    @TempDir
    Path dir;

    static Stream<String> javaHomes() {
        List<String> homes = new ArrayList<>(List.of(System.getProperty("java.home")));
        try (Stream<Path> jvms = Files.list(Path.of("/usr/lib/jvm"))) {
            jvms.filter(home -> home.getFileName().toString().matches(".*-(2[1-9]|[3-9][0-9])(-.*)?"))
                    .filter(home -> Files.isExecutable(home.resolve("bin/java")))
                    .sorted()
                    .reduce((first, last) -> last)
                    .ifPresent(home -> homes.add(home.toString()));
        } catch (IOException noOtherJdks) {
            // only the test JDK
        }
        return homes.stream();
    }

    @ParameterizedTest
    @MethodSource("javaHomes")
    void slow_clients_neither_pin_threads_nor_stop_a_normal_client_and_are_cut_at_the_deadline(String javaHome)
            throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self")), "reads thread counts from /proc");
        Path err = dir.resolve("serve.err");
        Process serve = new ProcessBuilder(
                        Path.of(javaHome, "bin", "java").toString(),
                        "-Xmx64m",
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "serve",
                        "--port",
                        "0",
                        "--header-timeout",
                        String.valueOf(HEADER_TIMEOUT_SECONDS),
                        "--store",
                        dir.resolve("runs.db").toString(),
                        "--config",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString())
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("serve.out").toFile())
                .start();
        List<Socket> slow = new ArrayList<>();
        try {
            URI url = URI.create(url(err));
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(60))
                    .build();
            assertThat(health(client, url)).isEqualTo(200);
            int before = threads(serve);

            long opened = System.nanoTime();
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), url.getPort());
                socket.setSoTimeout(1);
                socket.getOutputStream()
                        .write(("POST /v1/runs HTTP/1.1\r\nHost: " + url.getAuthority() + "\r\n")
                                .getBytes(StandardCharsets.US_ASCII));
                slow.add(socket);
            }
            int peak = 0;
            long normalAnswered = -1;
            int line = 0;
            // until every slow client is cut, or a minute (not hung: no timing target)
            while (slow.stream().anyMatch(socket -> !socket.isClosed())
                    && System.nanoTime() - opened < TimeUnit.SECONDS.toNanos(60)) {
                for (Socket socket : slow) { // one more header line each, as a slowloris client does
                    if (!socket.isClosed()) {
                        try {
                            socket.getOutputStream()
                                    .write(("X-Slow-" + line + ": still here\r\n").getBytes(StandardCharsets.US_ASCII));
                        } catch (IOException cut) {
                            socket.close();
                        }
                    }
                }
                line++;
                peak = Math.max(peak, threads(serve));
                if (normalAnswered < 0) {
                    long asked = System.nanoTime();
                    assertThat(health(client, url))
                            .as("a normal client is answered while the slow ones hold their connections")
                            .isEqualTo(200);
                    normalAnswered = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - asked); // printed only
                }
                Thread.sleep(500);
            }
            int open = 0;
            for (Socket socket : slow) {
                if (!socket.isClosed() && !ended(socket)) {
                    open++;
                }
            }
            System.out.printf(
                    "serve on %s: %d slow clients; threads %d before, peak %d; a normal client answered in %d ms; "
                            + "%d still connected after %d s%n",
                    javaHome,
                    SLOW_CLIENTS,
                    before,
                    peak,
                    normalAnswered,
                    open,
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - opened));
            assertThat(peak - before)
                    .as(
                            "threads added while %d slow clients are connected (%d before, peak %d)",
                            SLOW_CLIENTS, before, peak)
                    .isLessThan(50);
            assertThat(open)
                    .as("slow clients still connected after the header timeout (%d s) cut them", HEADER_TIMEOUT_SECONDS)
                    .isZero();
            assertThat(health(client, url)).isEqualTo(200);
        } finally {
            for (Socket socket : slow) {
                socket.close();
            }
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** Whether the server ended this connection (end of stream or reset), without waiting for more than a moment. */
    private static boolean ended(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            for (int n = in.read(buffer); ; n = in.read(buffer)) {
                if (n < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static int health(HttpClient client, URI url) throws Exception {
        return client.send(
                        HttpRequest.newBuilder(url.resolve("/healthz"))
                                .timeout(Duration.ofSeconds(60))
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    /** The child's thread count, from /proc. */
    private static int threads(Process process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("Threads:")) {
                return Integer.parseInt(line.substring(8).strip());
            }
        }
        throw new IllegalStateException("no Threads line in /proc/" + process.pid() + "/status");
    }

    private static String url(Path err) throws Exception {
        Pattern listening = Pattern.compile("listening on (http://\\S+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher matcher = listening.matcher(Files.exists(err) ? Files.readString(err) : "");
            if (matcher.find()) {
                return matcher.group(1);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("serve did not start: " + Files.readString(err));
    }
}
