package dev.planvm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code planvm show RUN} gives a stored {@code for_each} step a row per element (issue 24): committed elements with
 * their session, a failed element whose {@code on_error} value stands in with its error, at most
 * {@code --max-elements} rows; and a map the run stopped in the middle of, with the elements still pending.
 */
class ShowElementsCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private HttpServer counter;
    private Path config;

    @BeforeEach
    void start() throws Exception {
        counter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        counter.createContext("/count", exchange -> {
            int i = JSON.readTree(exchange.getRequestBody()).path("i").asInt();
            if (i == 12) { // fails for good: no retry
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
                return;
            }
            byte[] answer = ("{\"r\": " + (i * 2) + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        counter.start();
        config = Files.writeString(
                dir.resolve("planvm.json"), """
                {"httpTools": [{"name": "count", "method": "POST", "url": "http://127.0.0.1:%d/count",
                                "body": {"i": "${i}"}, "output": "/r",
                                "params": {"type": "object", "properties": {"i": {"type": "integer"}}, "required": ["i"]}}]}
                """.formatted(counter.getAddress().getPort()));
    }

    @AfterEach
    void stop() {
        counter.stop(0);
    }

    private CliRun planvm(String... args) {
        return CliRun.withEnvironment(
                Map.of("PLANVM_STORE", dir.resolve("runs.db").toString(), "PLANVM_CONFIG", config.toString()), args);
    }

    /** Runs {@code plan} stored, then shows it with {@code show} {@code extra}. */
    private JsonNode runAndShow(String plan, int exitCode, String... extra) throws Exception {
        Path file = Files.writeString(dir.resolve("map.json"), plan);
        CliRun run = planvm("run", file.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(exitCode);
        CliRun runs = planvm("runs");
        Matcher id = Pattern.compile("\\n(\\w+) +").matcher(runs.out());
        assertThat(id.find()).as(runs.out()).isTrue();
        String[] args = new String[extra.length + 2];
        args[0] = "show";
        args[1] = id.group(1);
        System.arraycopy(extra, 0, args, 2, extra.length);
        CliRun show = planvm(args);
        assertThat(show.exitCode()).as(show.err()).isZero();
        return JSON.readTree(show.out());
    }

    @Test
    void a_map_step_lists_its_elements_committed_and_failed_with_the_error() throws Exception {
        JsonNode shown = runAndShow("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "for_each": [10, 11, 12, 13],
                   "as": "n", "tool_params": {"i": "${n}"}, "output_vars": "counted", "on_error": {"value": -1}}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${counted}"}}]""", 0);

        JsonNode elements = shown.at("/steps/0/elements");
        assertThat(elements).hasSize(4);
        for (int i : new int[] {0, 1, 3}) {
            assertThat(elements.get(i).get("index").asInt()).isEqualTo(i);
            assertThat(elements.get(i).get("state").asText()).isEqualTo("committed");
            assertThat(elements.get(i).get("tool").asText()).isEqualTo("count");
            assertThat(elements.get(i).get("session").asInt()).isEqualTo(1);
            assertThat(elements.get(i).has("committed")).isTrue();
        }
        JsonNode failed = elements.get(2);
        assertThat(failed.get("state").asText()).isEqualTo("failed");
        assertThat(failed.at("/error/kind").asText()).isEqualTo("tool_error");
        assertThat(failed.at("/error/message").asText())
                .startsWith("for_each element 2 (of 4): tool 'count' failed: ")
                .contains("404");
        assertThat(shown.at("/steps/1").has("elements"))
                .as("an assign has no element rows")
                .isFalse();
        assertThat(shown.has("unfinished_map")).isFalse();
    }

    @Test
    void the_rows_shown_are_bounded_and_the_rest_counted() throws Exception {
        JsonNode shown = runAndShow("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "for_each": [10, 11, 13, 14, 15],
                   "as": "n", "tool_params": {"i": "${n}"}, "output_vars": "final_answer"}}]""", 0, "--max-elements", "2");

        assertThat(shown.at("/steps/0/elements")).hasSize(2);
        assertThat(shown.at("/steps/0/elements_more").asInt()).isEqualTo(3);
    }

    @Test
    void a_map_the_run_stopped_in_shows_its_committed_elements_and_the_pending_ones() throws Exception {
        JsonNode shown = runAndShow("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "for_each": [10, 11, 12, 13],
                   "as": "n", "tool_params": {"i": "${n}"}, "output_vars": "final_answer"}}]""", 1);

        assertThat(shown.get("steps")).isEmpty();
        JsonNode unfinished = shown.get("unfinished_map");
        assertThat(unfinished.get("seq_no").asInt()).isZero();
        assertThat(unfinished.get("committed_elements").asInt()).isEqualTo(3);
        assertThat(unfinished.get("elements"))
                .extracting(
                        row -> row.get("index").asInt() + ":" + row.get("state").asText())
                .containsExactly("0:committed", "1:committed", "2:pending", "3:committed");
    }
}
