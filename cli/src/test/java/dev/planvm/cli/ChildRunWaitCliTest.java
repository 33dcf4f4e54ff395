package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan tool's child run that waits makes its parent wait (issue 23): {@code planvm run} exits 3 naming the
 * child, and {@code planvm answer PARENT} / {@code planvm approve CHILD} continue the child and then the
 * parent, with no committed call made again (a counting loopback tool).
 */
class ChildRunWaitCliTest {

    @TempDir
    Path dir;

    private HttpServer counter;
    private final List<Integer> calls = new CopyOnWriteArrayList<>();
    private Path config;

    private static final String PICK = """
            {"name": "pick", "description": "Counts, asks for a colour, counts again",
             "inputs": {"type": "object"},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"i": 0}, "output_vars": "r"}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "human_input",
                  "tool_params": {"prompt": "Which colour?", "choices": ["red", "blue"]}, "output_vars": "c"}},
               {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "mark", "tool_params": {"i": "${r + 1}"}, "output_vars": "s"}},
               {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${c + r + s}"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "pick", "tool_params": {}, "output_vars": "p"}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${p}"}}]""";

    @BeforeEach
    void start() throws Exception {
        counter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        counter.createContext("/count", exchange -> {
            int i = new ObjectMapper()
                    .readTree(exchange.getRequestBody())
                    .path("i")
                    .asInt();
            calls.add(i);
            byte[] answer = ("{\"r\": " + i + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        counter.start();
        Files.createDirectories(dir.resolve("tools"));
        Files.writeString(dir.resolve("tools/pick.json"), PICK);
        String tool = """
                {"name": "%s", "method": "POST", "url": "http://127.0.0.1:%d/count", "body": {"i": "${i}"}, "output": "/r",
                 "params": {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"]}}""";
        int port = counter.getAddress().getPort();
        config = Files.writeString(
                dir.resolve("planvm.json"),
                "{\"planTools\": [\"tools\"], \"httpTools\": [" + tool.formatted("count", port) + ", "
                        + tool.formatted("mark", port) + "]}");
        Files.writeString(dir.resolve("parent.json"), PARENT);
    }

    @AfterEach
    void stop() {
        counter.stop(0);
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    private static String waitingRun(CliRun run) {
        Matcher id = Pattern.compile("run (\\w+) waits for").matcher(run.err());
        assertThat(id.find()).as(run.err()).isTrue();
        return id.group(1);
    }

    private String childOf(String parent) throws Exception {
        JsonNode shown = new ObjectMapper().readTree(planvm("show", parent).out());
        return shown.at("/children/0/run").asText();
    }

    @Test
    void input_asked_inside_a_child_is_answered_through_the_parent_and_both_continue() throws Exception {
        CliRun waiting = planvm("run", dir.resolve("parent.json").toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String parent = waitingRun(waiting);
        String child = childOf(parent);
        assertThat(waiting.err())
                .contains("child run " + child + " of plan tool 'pick' waits at its seq_no 1")
                .contains("waiting for input: Which colour?")
                .contains("planvm answer " + parent)
                .doesNotContain("\tat ");
        assertThat(calls).containsExactly(0);

        CliRun wrong = planvm("answer", parent, "--value", "\"green\"");
        assertThat(wrong.exitCode()).as(wrong.err()).isNotZero();
        assertThat(wrong.err()).contains("keeps waiting");

        CliRun answered = planvm("answer", parent, "--value", "\"blue\"");
        assertThat(answered.exitCode()).as(answered.err()).isZero();
        assertThat(answered.out()).isEqualTo("blue01\n");
        assertThat(calls).as("the child's committed call is not made again").containsExactly(0, 1);
        JsonNode shown = new ObjectMapper().readTree(planvm("show", child).out());
        assertThat(shown.path("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void an_approval_inside_a_child_is_given_through_the_child_and_both_continue() throws Exception {
        String answeredPick = """
                {"name": "pick", "description": "Counts, picks red, counts again",
                 "inputs": {"type": "object"},
                 "plan": [
                   {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": {"i": 0}, "output_vars": "r"}},
                   {"seq_no": 1, "type": "assign", "parameters": {"c": "red"}},
                   {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "mark", "tool_params": {"i": "${r + 1}"}, "output_vars": "s"}},
                   {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${c + r + s}"}}]}""";
        Files.writeString(dir.resolve("tools/pick.json"), answeredPick);

        CliRun waiting = planvm("run", dir.resolve("parent.json").toString(), "--approve-tools", "mark");
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String parent = waitingRun(waiting);
        String child = childOf(parent);
        assertThat(waiting.err())
                .contains("child run " + child + " of plan tool 'pick' waits at its seq_no 2")
                .contains("waiting for approval to call tool 'mark'")
                .contains("planvm approve " + parent);
        assertThat(calls).containsExactly(0);

        CliRun approved = planvm("approve", child);
        assertThat(approved.exitCode()).as(approved.err()).isZero();
        assertThat(approved.out()).isEqualTo("red01\n");
        assertThat(calls).as("the child's committed call is not made again").containsExactly(0, 1);
        JsonNode shown = new ObjectMapper().readTree(planvm("show", parent).out());
        assertThat(shown.path("status").asText()).isEqualTo("succeeded");
    }

    @Test
    void a_recording_whose_child_waits_is_completed_by_answer_and_then_replays_with_no_person() throws Exception {
        Path cassette = dir.resolve("parent.cassette.json");
        CliRun waiting = planvm("run", dir.resolve("parent.json").toString(), "--record", cassette.toString());
        assertThat(waiting.exitCode()).as(waiting.err()).isEqualTo(3);
        String parent = waitingRun(waiting);
        JsonNode partial = new ObjectMapper().readTree(cassette.toFile()).at("/interactions/0");
        assertThat(partial.path("tool").asText()).isEqualTo("pick");
        assertThat(partial.path("waiting").asBoolean()).as(partial.toString()).isTrue();
        assertThat(partial.at("/child_interactions/0/tool").asText())
                .as("the child's call before its wait is in the cassette")
                .isEqualTo("count");

        CliRun answered = planvm("answer", parent, "--value", "\"blue\"", "--record", cassette.toString());
        assertThat(answered.exitCode()).as(answered.err()).isZero();
        assertThat(answered.out()).isEqualTo("blue01\n");

        JsonNode interactions = new ObjectMapper().readTree(cassette.toFile()).path("interactions");
        assertThat(interactions).hasSize(1);
        JsonNode pick = interactions.get(0);
        assertThat(pick.has("waiting")).as(pick.toString()).isFalse();
        assertThat(pick.path("output").asText()).isEqualTo("blue01");
        assertThat(pick.path("child_interactions"))
                .extracting(i -> i.path("tool").asText())
                .containsExactly("count", "human_input", "mark");
        assertThat(pick.at("/child_interactions/1/output").asText()).isEqualTo("blue");

        counter.stop(0);
        List<Integer> before = List.copyOf(calls);
        CliRun replayed =
                planvm("run", dir.resolve("parent.json").toString(), "--replay", cassette.toString(), "--no-store");
        assertThat(replayed.exitCode()).as(replayed.err()).isZero();
        assertThat(replayed.out()).isEqualTo("blue01\n");
        assertThat(calls).as("a replay calls nothing").isEqualTo(before);
    }
}
