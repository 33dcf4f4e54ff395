package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.SseClient;
import dev.planvm.server.testing.SseClient.Event;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /v1/runs/{id}/events}: server-sent events as the run happens, resumable with Last-Event-ID. */
class EventStreamTest {

    /** Eight passes of a loop calling a slow tool, a retried call, then the answer. */
    static final String LOOP = """
            [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": ""}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "slow", "tool_params": {"ms": 15, "value": "${i}"}, "output_vars": "r"}},
             {"seq_no": 2, "type": "assign", "parameters": {"acc": "${acc + r}", "i": "${i + 1}"}},
             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < 8}", "jump_if_true": 1}},
             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "flaky", "tool_params": {"key": "${run_key}", "failures": 2}, "output_vars": "f"}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${acc + ' ' + f}"}}]""";

    @TempDir
    Path dir;

    @Test
    void a_client_that_disconnects_and_resumes_with_last_event_id_misses_nothing_and_sees_nothing_twice()
            throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String id = fixture.post("/v1/runs", ServerFixture.runBody(LOOP, "\"inputs\": {\"run_key\": \"a\"}"))
                    .json()
                    .path("id")
                    .asText();
            List<Event> seen = new ArrayList<>();
            String last = null;
            for (int connection = 0; connection < 100; connection++) {
                List<Event> batch =
                        SseClient.read(fixture.client, fixture.request("/v1/runs/" + id + "/events"), last, 7);
                seen.addAll(batch);
                if (batch.isEmpty() || batch.get(batch.size() - 1).type().equals("run_finished")) {
                    break;
                }
                last = String.valueOf(batch.get(batch.size() - 1).id());
            }
            List<Event> whole =
                    SseClient.read(fixture.client, fixture.request("/v1/runs/" + id + "/events"), null, 10_000);
            assertThat(seen).as("resumed reads, connection after connection").isEqualTo(whole);
            assertThat(seen).extracting(Event::id).isSorted().doesNotHaveDuplicates();
            assertThat(seen.get(0).type()).isEqualTo("run_started");
            assertThat(seen.get(seen.size() - 1).type()).isEqualTo("run_finished");
            assertThat(seen.get(seen.size() - 1).data().path("status").asText()).isEqualTo("succeeded");
            assertThat(seen.get(seen.size() - 1).data().path("result").asText())
                    .isEqualTo("01234567 ok after 2 failures");
            assertThat(seen).filteredOn(e -> e.type().equals("step_committed")).hasSize(1 + 8 * 3 + 2);
            assertThat(seen)
                    .filteredOn(e -> e.type().equals("call_retried"))
                    .hasSize(2)
                    .allSatisfy(e -> assertThat(e.data().path("error").asText()).startsWith("flaky failure"));
            assertThat(seen).extracting(Event::type).contains("step_started", "call_started", "call_answered");
        }
    }

    @Test
    void events_a_small_log_dropped_are_rebuilt_from_the_store_so_a_reader_from_the_start_misses_no_commit()
            throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT.withEventLogCapacity(10),
                dev.planvm.server.http.ServerSettings.DEFAULT)) {
            String id = fixture.post(
                            "/v1/runs?wait=true", ServerFixture.runBody(LOOP, "\"inputs\": {\"run_key\": \"c\"}"))
                    .json()
                    .path("id")
                    .asText();
            List<Event> events =
                    SseClient.read(fixture.client, fixture.request("/v1/runs/" + id + "/events"), null, 10_000);
            assertThat(events).extracting(Event::id).isSorted().doesNotHaveDuplicates();
            assertThat(events)
                    .filteredOn(e -> e.type().equals("step_committed"))
                    .hasSize(27);
            assertThat(events.get(0).type()).isEqualTo("run_started");
            assertThat(events.get(events.size() - 1).type()).isEqualTo("run_finished");
        }
    }

    @Test
    void event_streams_are_limited_and_a_malformed_last_event_id_is_refused() throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                dev.planvm.server.http.ServerSettings.builder()
                        .maxEventStreams(1)
                        .build())) {
            String id = fixture.post(
                            "/v1/runs",
                            ServerFixture.runBody(
                                    "[{\"seq_no\": 0, \"type\": \"calling\", "
                                            + "\"parameters\": {\"tool_name\": \"gate\"}}]",
                                    ""))
                    .json()
                    .path("id")
                    .asText();
            java.net.http.HttpResponse<java.io.InputStream> first = fixture.client.send(
                    fixture.request("/v1/runs/" + id + "/events").GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofInputStream());
            java.io.BufferedReader open = new java.io.BufferedReader(
                    new java.io.InputStreamReader(first.body(), java.nio.charset.StandardCharsets.UTF_8));
            assertThat(open.readLine()).as("the first stream is open").isEqualTo("retry: 2000");
            ServerFixture.Answer second = fixture.get("/v1/runs/" + id + "/events");
            assertThat(second.status()).isEqualTo(429);
            assertThat(second.header("Retry-After")).isEqualTo("1");
            assertThat(second.json().path("message").asText()).contains("1 event streams at once");
            fixture.open();
            assertThat(open.lines().filter(line -> line.startsWith("event: ")).reduce((x, y) -> y))
                    .hasValue("event: run_finished");
            open.close();
            ServerFixture.Answer bad = fixture.send(fixture.request("/v1/runs/" + id + "/events")
                    .header("Last-Event-ID", "x1")
                    .GET()
                    .build());
            assertThat(bad.status()).isEqualTo(400);
            assertThat(bad.json().path("message").asText())
                    .isEqualTo("Last-Event-ID must be an event id (a number), not 'x1'");
        }
    }

    @Test
    void after_a_restart_the_events_of_a_stored_run_are_rebuilt_with_the_same_ids() throws Exception {
        List<Event> live;
        String id;
        Path store = dir.resolve("runs.db");
        try (ServerFixture first =
                new ServerFixture(store, ServiceSettings.DEFAULT, dev.planvm.server.http.ServerSettings.DEFAULT)) {
            id = first.post("/v1/runs?wait=true", ServerFixture.runBody(LOOP, "\"inputs\": {\"run_key\": \"b\"}"))
                    .json()
                    .path("id")
                    .asText();
            live = SseClient.read(first.client, first.request("/v1/runs/" + id + "/events"), null, 10_000);
        }
        try (ServerFixture second =
                new ServerFixture(store, ServiceSettings.DEFAULT, dev.planvm.server.http.ServerSettings.DEFAULT)) {
            List<Event> rebuilt =
                    SseClient.read(second.client, second.request("/v1/runs/" + id + "/events"), null, 10_000);
            List<Event> expected = live.stream()
                    .filter(e -> e.type().equals("step_committed")
                            || e.type().equals("run_started")
                            || e.type().equals("run_finished"))
                    .toList();
            assertThat(rebuilt)
                    .extracting(Event::id)
                    .isEqualTo(expected.stream().map(Event::id).toList());
            assertThat(rebuilt)
                    .extracting(Event::type)
                    .isEqualTo(expected.stream().map(Event::type).toList());
            long middle = expected.get(10).id();
            List<Event> resumed = SseClient.read(
                    second.client, second.request("/v1/runs/" + id + "/events"), String.valueOf(middle), 10_000);
            assertThat(resumed)
                    .extracting(Event::id)
                    .isEqualTo(expected.subList(11, expected.size()).stream()
                            .map(Event::id)
                            .toList());
        }
    }
}
