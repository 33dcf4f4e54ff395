package dev.planvm.server;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.RawHttp;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.durable.RunStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Requests to {@code planvm serve} are untrusted: whatever bytes a client sends, the server answers with an
 * HTTP status that is not 500, an unexpected failure (or closes a request it cannot parse), every error body is
 * empty or the JSON {@code {"error", ...}}, nothing shows a stack trace, each answer comes within seconds, and the server goes on
 * answering. The bytes go through the whole stack — Jetty's parser, the request guard (Host, Origin, content
 * type), the token-free front, the router, the body and query readers, the service — of a real server on
 * 127.0.0.1.
 *
 * <p>Input: a request as text, its head with LF or CRLF line ends; a {@code Host} naming the server is added
 * when the head has none, and a {@code Content-Length} when it has neither that nor a transfer coding. Under
 * plain {@code mvn test} this runs once per file in {@code ServerRequestFuzzTestInputs}; with
 * {@code JAZZER_FUZZ=1} Jazzer mutates them (see bench/README.md, "Fuzzing").
 */
class ServerRequestFuzzTest {

    /** One server for every input (started on first use, stopped when the JVM ends). */
    private static final class Server {
        static final PlanServer SERVER = start();

        private static PlanServer start() {
            try {
                Path dir = Files.createTempDirectory("planvm-fuzz-server");
                PlanVm vm = PlanVm.builder().build();
                RunStore store = RunStore.open(
                        dir.resolve("runs.db"),
                        vm.redactor(),
                        RunStore.Settings.DEFAULT.withDurability(RunStore.Durability.PROCESS));
                PlanService service = new PlanService(vm, store, ServiceSettings.DEFAULT.withMaxActiveRuns(4));
                PlanServer server = PlanServer.start(
                        service,
                        ServerSettings.builder()
                                .port(0)
                                .maxWait(Duration.ofSeconds(2))
                                .headerTimeout(Duration.ofSeconds(2))
                                .bodyTimeout(Duration.ofSeconds(2))
                                .build());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(Duration.ZERO)));
                return server;
            } catch (IOException e) {
                throw new IllegalStateException("cannot start the server to fuzz", e);
            }
        }
    }

    private static final String[] INSIDES = {"\tat ", "Exception", "stackTrace", ".java:", "Jetty", "jetty"};

    @FuzzTest(maxDuration = "60s")
    void any_request_is_answered_in_time_with_a_json_error_or_success_and_the_server_goes_on(byte[] input)
            throws IOException {
        PlanServer server = Server.SERVER;
        BugDetectors.allowNetworkConnections(
                (host, port) -> port == server.port() && (host.equals("localhost") || host.startsWith("127.")));
        byte[] request = request(input, server.port());
        RawHttp.Answer answer;
        try {
            answer = RawHttp.exchange(server.port(), request);
        } catch (java.net.SocketTimeoutException e) { // not hung: a deadline, no timing target
            throw new AssertionError("no answer within 60 s to " + shown(request));
        }
        if (answer.status() == 500) { // an unexpected failure (505, 501: a protocol Jetty does not speak)
            throw new AssertionError("answered " + answer.status() + " " + answer.body() + " to " + shown(request));
        }
        if (answer.status() >= 400 && !answer.body().isEmpty()) { // Jetty answers some bad heads with no body
            JsonNode error = json(answer.body());
            if (error == null || !error.path("error").isTextual()) {
                throw new AssertionError("an error that is not {\"error\": ...}: " + answer.status() + " "
                        + answer.body() + " to " + shown(request));
            }
        }
        String sent = new String(request, StandardCharsets.ISO_8859_1);
        for (String inside : INSIDES) { // what only a stack trace or the server's name would show, not echoed
            if (answer.body().contains(inside) && !sent.contains(inside)) {
                throw new AssertionError("an answer that shows the server's insides: " + answer.body());
            }
        }
        RawHttp.Answer health =
                RawHttp.send(server.port(), RawHttp.head("GET", "/healthz", "127.0.0.1:" + server.port()), "");
        if (health.status() != 200) {
            throw new AssertionError("the server stopped answering after " + shown(request) + ": " + health);
        }
    }

    /** The fuzz input as an HTTP request to the server on {@code port}. */
    static byte[] request(byte[] input, int port) {
        String text = new String(input, StandardCharsets.ISO_8859_1); // a char a byte
        int end = text.indexOf("\n\n");
        int crlf = text.indexOf("\r\n\r\n");
        int split = crlf >= 0 && (end < 0 || crlf < end) ? crlf : end;
        int bodyStart = split < 0 ? text.length() : split + (split == crlf ? 4 : 2);
        String head = (split < 0 ? text : text.substring(0, split)).replace("\r\n", "\n");
        byte[] body = text.substring(bodyStart).getBytes(StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\n", -1);
        StringBuilder out = new StringBuilder(lines[0]).append("\r\n");
        String lower = head.toLowerCase(Locale.ROOT);
        if (!lower.contains("\nhost:")) {
            out.append("Host: 127.0.0.1:").append(port).append("\r\n");
        }
        for (int i = 1; i < lines.length; i++) {
            out.append(lines[i]).append("\r\n");
        }
        if (!lower.contains("\ncontent-length:") && !lower.contains("\ntransfer-encoding:")) {
            out.append("Content-Length: ").append(body.length).append("\r\n");
        }
        out.append("\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(out.toString().getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }

    private static JsonNode json(String body) {
        try {
            return ServerFixture.JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String shown(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
