package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerMain;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server in a child JVM ({@link ServerMain}) killed with SIGKILL, then started again on the same store:
 * a run killed mid-way finishes with no committed call repeated, and a run waiting for approval survives
 * and is approved through the new server.
 */
@Tag("slow") // crash: servers killed in child JVMs (mvn -Pslow)
class ServerCrashTest {

    static final int PASSES = 12;
    static final String LOOP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "work", "tool_params": {"i": "${i}"}, "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"acc": "${acc + r + ','}", "i": "${i + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < %d}", "jump_if_true": 1}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${acc}"}}]""".formatted(PASSES);

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void a_server_killed_mid_run_resumes_it_on_start_and_no_committed_call_runs_again() throws Exception {
        Path store = dir.resolve("runs.db");
        Path log = dir.resolve("calls.log");
        Process first = child(store, log, 1);
        String id;
        try {
            id = post(port(1), "/v1/runs", ServerFixture.runBody(LOOP, ""))
                    .path("id")
                    .asText();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lines(log).size() < 4 && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
        } finally {
            first.destroyForcibly(); // SIGKILL
            first.waitFor();
        }
        int callsBefore = lines(log).size();
        assertThat(callsBefore).as("killed mid-run").isBetween(4, PASSES - 1);
        Process second = child(store, log, 2);
        try {
            JsonNode done = await(port(2), id, "succeeded");
            assertThat(done.path("result").asText()).isEqualTo("0,1,2,3,4,5,6,7,8,9,10,11,");
            assertThat(done.path("sessions").asInt()).isEqualTo(2);
            Map<Integer, List<Integer>> sessionsByPass = new HashMap<>();
            for (String line : lines(log)) {
                String[] parts = line.split(" ");
                sessionsByPass
                        .computeIfAbsent(Integer.parseInt(parts[2]), p -> new ArrayList<>())
                        .add(Integer.parseInt(parts[0]));
            }
            for (JsonNode step : done.path("steps")) {
                if (!step.path("type").asText().equals("calling")) {
                    continue;
                }
                int pass = step.at("/inputs/params/i").asInt();
                int committedIn = step.path("session").asInt();
                assertThat(sessionsByPass.get(pass))
                        .as("pass %d: invoked once by the session that committed it", pass)
                        .filteredOn(s -> s == committedIn)
                        .hasSize(1);
                assertThat(sessionsByPass.get(pass))
                        .as("pass %d: never invoked after it was committed", pass)
                        .allMatch(s -> s <= committedIn);
            }
        } finally {
            second.destroyForcibly();
            second.waitFor();
        }
    }

    @Test
    void a_run_waiting_for_approval_survives_a_killed_server_and_is_approved_through_the_next_one() throws Exception {
        Path store = dir.resolve("runs.db");
        Path log = dir.resolve("calls.log");
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"to": "ann"}, "output_vars": "s"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${s}"}}]""";
        Process first = child(store, log, 1);
        String id;
        try {
            JsonNode waiting =
                    post(port(1), "/v1/runs?wait=true", ServerFixture.runBody(plan, "\"approve_tools\": [\"send\"]"));
            assertThat(waiting.path("state").asText()).isEqualTo("waiting");
            id = waiting.path("id").asText();
        } finally {
            first.destroyForcibly();
            first.waitFor();
        }
        Process second = child(store, log, 2);
        try {
            int port = port(2);
            JsonNode stored = get(port, "/v1/runs/" + id);
            assertThat(stored.path("state").asText()).isEqualTo("waiting");
            JsonNode approved = post(
                    port,
                    "/v1/runs/" + id + "/approve?wait=true",
                    "{\"call_id\": \"" + stored.at("/pending/call_id").asText() + "\", \"approved\": true}");
            assertThat(approved.path("result").asText()).isEqualTo("sent to ann");
            assertThat(lines(log)).containsExactly("2 send ann");
        } finally {
            second.destroyForcibly();
            second.waitFor();
        }
    }

    private Process child(Path store, Path log, int session) throws Exception {
        return new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1",
                        "-XX:+UseSerialGC",
                        "-Xshare:auto",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ServerMain.class.getName(),
                        store.toString(),
                        log.toString(),
                        dir.resolve("port-" + session).toString(),
                        String.valueOf(session))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("child-" + session + ".out").toFile())
                .start();
    }

    private int port(int session) throws Exception {
        Path file = dir.resolve("port-" + session);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the child server did not start: "
                        + Files.readString(dir.resolve("child-" + session + ".out")));
            }
            Thread.sleep(10);
        }
        return Integer.parseInt(Files.readString(file).strip());
    }

    private JsonNode await(int port, String id, String state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode run;
        do {
            run = get(port, "/v1/runs/" + id);
            if (run.path("state").asText().equals(state)) {
                return run;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " is " + run.path("state") + ": " + run);
    }

    private JsonNode get(int port, String path) throws Exception {
        return ServerFixture.JSON.readTree(client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .timeout(Duration.ofSeconds(30))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
    }

    private JsonNode post(int port, String path, String body) throws Exception {
        return ServerFixture.JSON.readTree(client.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                                .timeout(Duration.ofSeconds(30))
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
    }

    private static List<String> lines(Path log) throws Exception {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }
}
