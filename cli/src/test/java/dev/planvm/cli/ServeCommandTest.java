package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code planvm serve}: a child JVM serving on an ephemeral port until SIGTERM; usage errors in-process. */
class ServeCommandTest {

    @TempDir
    Path dir;

    @Test
    void serve_answers_requests_and_stops_on_sigterm() throws Exception {
        Path err = dir.resolve("serve.err");
        Process serve = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-cp",
                        System.getProperty("java.class.path"),
                        Main.class.getName(),
                        "serve",
                        "--port",
                        "0",
                        "--store",
                        dir.resolve("runs.db").toString(),
                        "--config",
                        Files.writeString(dir.resolve("planvm.json"), "{}").toString())
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("serve.out").toFile())
                .start();
        try {
            String url = url(err);
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> run = client.send(
                    HttpRequest.newBuilder(URI.create(url + "/v1/runs?wait=true"))
                            .timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"plan\": [{\"seq_no\": 0, "
                                    + "\"type\": \"assign\", \"parameters\": {\"final_answer\": \"${1 + 1}\"}}]}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).isEqualTo(200);
            JsonNode outcome = new ObjectMapper().readTree(run.body());
            assertThat(outcome.path("result").asInt()).isEqualTo(2);
        } finally {
            serve.destroy(); // SIGTERM
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(err)).contains("planvm serve: stopped");
        assertThat(Files.readString(dir.resolve("serve.out")))
                .as("stdout stays empty")
                .isEmpty();
    }

    @Test
    void a_public_address_needs_a_token_and_a_token_must_be_long_enough() throws Exception {
        Map<String, String> env = Map.of("PLANVM_STORE", dir.resolve("runs.db").toString());
        CliRun open = CliRun.withEnvironment(env, "serve", "--bind", "0.0.0.0", "--port", "0");
        assertThat(open.exitCode()).isEqualTo(2);
        assertThat(open.err())
                .contains(
                        "listening on 0.0.0.0, which is not a loopback address, needs a bearer token (--token-file FILE)");
        Path shortToken = Files.writeString(dir.resolve("token"), "abc\n");
        CliRun weak = CliRun.withEnvironment(env, "serve", "--token-file", shortToken.toString(), "--port", "0");
        assertThat(weak.exitCode()).isEqualTo(2);
        assertThat(weak.err())
                .contains("the token must be one word of at least 16 characters")
                .doesNotContain("abc");
        CliRun withVar = CliRun.withEnvironment(env, "serve", "--var", "x=1");
        assertThat(withVar.exitCode()).isEqualTo(2);
        assertThat(withVar.err()).contains("--var does not go with serve");
    }

    private static String url(Path err) throws Exception {
        Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = listening.matcher(Files.exists(err) ? Files.readString(err) : "");
            if (m.find()) {
                return m.group(1);
            }
            Thread.sleep(20);
        }
        throw new AssertionError("planvm serve did not start: " + Files.readString(err));
    }
}
