package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan tool's child run is a stored run of its own (issue 23): {@code planvm} in a child JVM is killed
 * with SIGKILL while the child run waits for its third call; {@code planvm resume PARENT} continues the
 * child after its last committed step, so a counting loopback tool sees no committed call again. {@code
 * runs} and {@code show} name the lineage. A recorded tree replays offline; the run's {@code --deny-tools}
 * reach into the child.
 */
class ChildRunsCliTest {

    @TempDir
    Path dir;

    private HttpServer counter;
    private final List<Integer> calls = new CopyOnWriteArrayList<>();
    private final CountDownLatch third = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private Path config;

    private static final String COUNTER = """
            {"name": "counter", "description": "Counts to n, one call per number",
             "inputs": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
             "plan": [
               {"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"i": "${i}"}, "output_vars": "r"}},
               {"seq_no": 2, "type": "assign", "parameters": {"acc": "${acc + r + ','}", "i": "${i + 1}"}},
               {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < n}", "jump_if_true": 1}},
               {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${acc}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "assign", "parameters": {"n": 5}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "counter", "tool_params": {"n": "${n}"}, "output_vars": "counted"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${counted}"}}]""";

    @BeforeEach
    void start() throws Exception {
        counter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        counter.createContext("/count", exchange -> {
            JsonNode body = new ObjectMapper().readTree(exchange.getRequestBody());
            int i = body.path("i").asInt();
            calls.add(i);
            if (i == 2 && third.getCount() > 0) {
                third.countDown(); // the first process dies while this call is in flight
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            byte[] answer = ("{\"r\": " + i + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        counter.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        counter.start();
        Files.createDirectories(dir.resolve("tools"));
        Files.writeString(dir.resolve("tools/counter.json"), COUNTER);
        config = Files.writeString(
                dir.resolve("planvm.json"), """
                {"planTools": ["tools"],
                 "httpTools": [{"name": "count", "method": "POST", "url": "http://127.0.0.1:%d/count",
                                "body": {"i": "${i}"}, "output": "/r",
                                "params": {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"]}}]}
                """.formatted(counter.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        release.countDown();
        counter.stop(0);
    }

    private Map<String, String> environment() {
        return Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString());
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(environment(), args);
    }

    @Tag("slow") // crash: a child JVM killed mid-run (mvn -Pslow)
    @Test
    void a_parent_killed_while_its_child_runs_resumes_the_child_without_repeating_a_committed_call() throws Exception {
        Path plan = Files.writeString(dir.resolve("parent.json"), PARENT);
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "run",
                plan.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("first.out").toFile());
        builder.environment().putAll(environment());
        Process first = builder.start();
        try {
            assertThat(third.await(120, TimeUnit.SECONDS))
                    .as("the child run reached its third call: %s", Files.readString(dir.resolve("first.out")))
                    .isTrue();
        } finally {
            first.destroyForcibly(); // SIGKILL, mid-child
            first.waitFor(30, TimeUnit.SECONDS);
            release.countDown();
        }
        assertThat(calls).containsExactly(0, 1, 2);

        CliRun runs = planvm("runs");
        assertThat(runs.exitCode()).as(runs.err()).isZero();
        Matcher child = Pattern.compile("(\\w+) +interrupted .*counter.json \\(child of (\\w+) at seq_no 1\\)")
                .matcher(runs.out());
        assertThat(child.find()).as(runs.out()).isTrue();
        String childId = child.group(1);
        String parentId = child.group(2);
        assertThat(runs.out()).containsPattern(parentId + " +interrupted +1 ");

        CliRun resumed = planvm("resume", parentId);
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).isEqualTo("0,1,2,3,4,\n");
        // 0 and 1 were committed by the killed process and never called again; 2 was in flight (at least once)
        assertThat(calls).containsExactly(0, 1, 2, 2, 3, 4);

        JsonNode parent = new ObjectMapper().readTree(planvm("show", parentId).out());
        assertThat(parent.path("status").asText()).isEqualTo("succeeded");
        assertThat(parent.path("children")).hasSize(1);
        assertThat(parent.at("/children/0/run").asText()).isEqualTo(childId);
        assertThat(parent.at("/children/0/seq_no").asInt()).isEqualTo(1);
        assertThat(parent.at("/children/0/state").asText()).isEqualTo("succeeded");

        JsonNode shown = new ObjectMapper().readTree(planvm("show", childId).out());
        assertThat(shown.path("parent_run_id").asText()).isEqualTo(parentId);
        assertThat(shown.path("parent_seq_no").asInt()).isEqualTo(1);
        assertThat(shown.path("sessions").asInt()).isEqualTo(2);
        List<Integer> sessions = new ArrayList<>();
        shown.path("steps").forEach(step -> {
            if (step.path("type").asText().equals("calling")) {
                sessions.add(step.path("session").asInt());
            }
        });
        assertThat(sessions)
                .as("the calls of 0 and 1 committed before the kill")
                .containsExactly(1, 1, 2, 2, 2);
    }

    @Test
    void a_recorded_tree_replays_offline_and_the_runs_deny_tools_reach_into_the_child() throws Exception {
        Path plan = Files.writeString(dir.resolve("parent.json"), PARENT.replace("\"n\": 5", "\"n\": 2"));
        third.countDown(); // nothing blocks in this test
        Path cassette = dir.resolve("parent.cassette.json");
        CliRun recorded = planvm("run", plan.toString(), "--record", cassette.toString());
        assertThat(recorded.exitCode()).as(recorded.err()).isZero();
        assertThat(recorded.out()).isEqualTo("0,1,\n");
        assertThat(calls).containsExactly(0, 1);
        JsonNode document = new ObjectMapper().readTree(cassette.toFile());
        assertThat(document.path("interactions")).hasSize(1);
        assertThat(document.at("/interactions/0/tool").asText()).isEqualTo("counter");
        assertThat(document.at("/interactions/0/child_run").asBoolean()).isTrue();
        assertThat(document.at("/interactions/0/child_interactions").findValuesAsText("tool"))
                .containsExactly("count", "count");

        counter.stop(0); // offline from here
        CliRun replayed = planvm("run", plan.toString(), "--replay", cassette.toString());
        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo("0,1,\n");
        assertThat(calls).hasSize(2);
        CliRun runs = planvm("runs");
        assertThat(runs.out().lines().filter(line -> line.contains("(child of ")))
                .hasSize(2);

        CliRun denied = planvm("run", plan.toString(), "--deny-tools", "count");
        assertThat(denied.exitCode()).isNotZero();
        assertThat(denied.err())
                .contains("plan tool 'counter' cannot run here")
                .contains("tool 'count' is denied")
                .doesNotContain("\tat ");
        assertThat(calls).hasSize(2);
    }

    /**
     * The state a {@code kill -9} leaves between a child's end and its parent's commit of the plan-tool step,
     * made by hand in the store (no process can be killed at exactly that moment): the child succeeded, the
     * parent's step is not committed and its owner is gone. {@code resume --replay} takes the child's answer.
     */
    @Test
    void a_replayed_child_that_ended_before_its_parent_committed_is_not_replayed_again_on_resume() throws Exception {
        Path plan = Files.writeString(dir.resolve("parent.json"), PARENT.replace("\"n\": 5", "\"n\": 2"));
        third.countDown(); // nothing blocks in this test
        Path cassette = dir.resolve("parent.cassette.json");
        CliRun recorded = planvm("run", plan.toString(), "--record", cassette.toString(), "--no-store");
        assertThat(recorded.out()).as(recorded.err()).isEqualTo("0,1,\n");
        counter.stop(0); // offline from here
        CliRun replayed = planvm("run", plan.toString(), "--replay", cassette.toString());
        assertThat(replayed.out()).as(replayed.err()).isEqualTo("0,1,\n");
        Matcher child = Pattern.compile("(\\w+) +succeeded .*counter.json \\(child of (\\w+) at seq_no 1\\)")
                .matcher(planvm("runs").out());
        assertThat(child.find()).isTrue();
        String parentId = child.group(2);
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("runs.db"));
                Statement sql = db.createStatement()) {
            sql.executeUpdate("DELETE FROM steps WHERE run_id = '" + parentId + "' AND step_index >= 2");
            sql.executeUpdate("UPDATE runs SET status = 'running', final_answer = NULL, finished_at = NULL,"
                    + " owner = '1@elsewhere@0', lease_until = 1 WHERE id = '" + parentId + "'");
        }

        CliRun resumed = planvm("resume", parentId, "--replay", cassette.toString());

        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.out()).isEqualTo("0,1,\n");
        JsonNode parent = new ObjectMapper().readTree(planvm("show", parentId).out());
        assertThat(parent.path("children")).as("the child is not started again").hasSize(1);
        assertThat(parent.at("/children/0/run").asText()).isEqualTo(child.group(1));
        assertThat(calls).hasSize(2);
    }
}
