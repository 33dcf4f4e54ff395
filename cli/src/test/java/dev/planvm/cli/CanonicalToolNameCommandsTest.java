package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.integrations.testing.Configs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --approve-tools 'svc:*'} holds for a plan that calls a real MCP server's tool by its bare name
 * ({@code lookup} for {@code svc:lookup}): on {@code planvm run} and on {@code planvm serve}, whose
 * per-run {@code approve_tools} hold the same way. The server never sees the call.
 */
class CanonicalToolNameCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path log;

    private Path config() throws Exception {
        log = dir.resolve("calls.log");
        ObjectNode config = Configs.JSON.createObjectNode();
        config.putObject("mcpServers").set("svc", Configs.stdioServer("--log", log.toString()));
        return Configs.write(dir, config);
    }

    private Path plan(String tool) throws Exception {
        return Files.writeString(dir.resolve("plan.json"), planJson(tool));
    }

    private static String planJson(String tool) {
        return """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool": "%s", "params": {"key": "k"}, "output_vars": "r"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r.value}"}}]""".formatted(tool);
    }

    private List<String> calls() throws Exception {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void run_waits_for_approval_of_an_mcp_tool_called_by_its_bare_name() throws Exception {
        Path config = config();
        Map<String, String> env = Map.of("PLANVM_STORE", dir.resolve("runs.db").toString());
        for (String tool : List.of("lookup", "svc:lookup")) {
            CliRun run = CliRun.withEnvironment(
                    env, "run", plan(tool).toString(), "--config", config.toString(), "--approve-tools", "svc:*");
            assertThat(run.exitCode()).as(tool + ": " + run.err()).isEqualTo(ExitCodes.WAITING);
            assertThat(run.err()).as(tool).contains("waits for approval");
        }
        assertThat(calls()).as("the server never saw the call").isEmpty();
        CliRun allowed = CliRun.withEnvironment(env, "run", plan("lookup").toString(), "--config", config.toString());
        assertThat(allowed.out()).as(allowed.err()).isEqualTo("v-k\n");
        assertThat(calls()).containsExactly("lookup k");
    }

    @Test
    void serve_holds_a_bare_named_call_for_approval_by_its_flag_and_by_a_runs_own_approve_tools() throws Exception {
        Path config = config();
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
                        config.toString(),
                        "--approve-tools",
                        "svc:lookup")
                .redirectError(err.toFile())
                .redirectOutput(dir.resolve("serve.out").toFile())
                .start();
        try {
            String url = url(err);
            ObjectNode byFlag = JSON.createObjectNode();
            byFlag.set("plan", JSON.readTree(planJson("lookup")));
            assertThat(post(url, byFlag).path("state").asText()).isEqualTo("waiting");

            ObjectNode byRun = JSON.createObjectNode();
            byRun.set("plan", JSON.readTree(planJson("fail")));
            byRun.putArray("approve_tools").add("svc:*");
            JsonNode waiting = post(url, byRun);
            assertThat(waiting.path("state").asText()).as(waiting.toString()).isEqualTo("waiting");
            assertThat(waiting.path("pending").path("tool").asText()).isEqualTo("fail");
            assertThat(calls()).as("the server never saw either call").isEmpty();
        } finally {
            serve.destroy();
            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static JsonNode post(String url, ObjectNode body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(url + "/v1/runs?wait=true"))
                                .timeout(Duration.ofSeconds(60))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isLessThan(300);
        return JSON.readTree(response.body());
    }

    /** The URL the server printed on stderr once it listens. */
    private static String url(Path err) throws Exception {
        Pattern listening = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(err)) {
                Matcher matcher = listening.matcher(Files.readString(err));
                if (matcher.find()) {
                    return matcher.group(1);
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server did not say where it listens: " + Files.readString(err));
    }
}
