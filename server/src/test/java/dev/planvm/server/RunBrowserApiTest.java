package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the run browser needs of the server, over a real server on 127.0.0.1: its files (with a CSP, without the
 * token), POSTs from its own origin, a run's report model, trace and cassette, and a search of the run list.
 */
class RunBrowserApiTest {

    private static final String PLAN =
            "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"echo\","
                    + " \"tool_params\": {\"x\": \"${x}\"}, \"output_vars\": \"out\"}},"
                    + " {\"seq_no\": 1, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${out.x}\"}}]";

    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = ServerFixture.start(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void the_browser_page_and_its_files_come_with_a_csp_and_need_no_token() throws Exception {
        try (ServerFixture guarded = new ServerFixture(
                dir.resolve("guarded.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.builder().token("t0ken-0123456789").build())) {
            for (String path : new String[] {"/", "/ui/app.js", "/ui/report.js", "/ui/report.css", "/ui/app.css"}) {
                Answer file = guarded.send(HttpRequest.newBuilder(URI.create(guarded.url(path)))
                        .GET()
                        .build());
                assertThat(file.status()).as(path).isEqualTo(200);
                assertThat(file.header("Content-Security-Policy"))
                        .as(path)
                        .startsWith("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'")
                        .doesNotContain("unsafe");
            }
            Answer page = guarded.send(
                    HttpRequest.newBuilder(URI.create(guarded.url("/"))).GET().build());
            assertThat(page.header("Content-Type")).startsWith("text/html");
            assertThat(page.response().body()).contains("<script type=\"module\" src=\"ui/app.js\">");
            Answer data = guarded.send(HttpRequest.newBuilder(URI.create(guarded.url("/v1/runs")))
                    .GET()
                    .build());
            assertThat(data.status()).as("the data still needs the token").isEqualTo(401);
        }
        assertThat(fixture.get("/ui/nothing.js").status()).isEqualTo(404);
        assertThat(fixture.get("/ui/../openapi.json").status()).isIn(400, 404);
    }

    @Test
    void a_post_from_the_servers_own_origin_is_taken_and_one_from_another_port_is_refused() throws Exception {
        Answer own = fixture.send(fixture.request("/v1/runs?wait=true")
                .header("Content-Type", "application/json")
                .header("Origin", fixture.server.url())
                .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.runBody(PLAN, "\"inputs\": {\"x\": 1}")))
                .build());
        assertThat(own.status()).as(own.response().body()).isEqualTo(200);
        assertThat(own.header("Access-Control-Allow-Origin"))
                .as("same origin: no CORS answer")
                .isNull();
        Answer other = fixture.send(fixture.request("/v1/runs?wait=true")
                .header("Content-Type", "application/json")
                .header("Origin", "http://127.0.0.1:" + (fixture.server.port() == 1 ? 2 : fixture.server.port() - 1))
                .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.runBody(PLAN, "\"inputs\": {\"x\": 2}")))
                .build());
        assertThat(other.status()).isEqualTo(403);
        assertThat(fixture.echoes).hasValue(1);
    }

    @Test
    void the_report_model_of_a_waiting_run_names_its_state_and_the_call_an_approval_names() throws Exception {
        JsonNode waiting = fixture.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(
                                "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"send_mail\","
                                        + " \"tool_params\": {\"to\": \"ann\"}, \"output_vars\": \"s\"}}]",
                                "\"approve_tools\": [\"send_*\"]"))
                .json();
        String id = waiting.path("id").asText();
        JsonNode model = fixture.get("/v1/runs/" + id + "/report").json();
        assertThat(model.at("/run/state").asText()).isEqualTo("waiting");
        assertThat(model.at("/summary/status").asText()).isEqualTo("waiting");
        assertThat(model.at("/run/pending/call_id").asText())
                .isEqualTo(waiting.at("/pending/call_id").asText());
        assertThat(model.at("/graph/nodes/0/outcome").asText()).isEqualTo("waiting");
        assertThat(model.at("/run/links/trace").asText()).isEqualTo("/v1/runs/" + id + "/trace");
    }

    @Test
    void the_trace_and_the_cassette_of_a_run_download_and_the_cassette_replays_the_run() throws Exception {
        String id = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(PLAN, "\"inputs\": {\"x\": \"hi\"}"))
                .json()
                .path("id")
                .asText();
        Answer trace = fixture.get("/v1/runs/" + id + "/trace");
        assertThat(trace.status()).isEqualTo(200);
        assertThat(trace.header("Content-Disposition"))
                .isEqualTo("attachment; filename=\"planvm-trace-" + id + ".json\"");
        assertThat(trace.json().path("format").asText()).isEqualTo("planvm-trace/1");
        assertThat(trace.json().path("steps").size()).isEqualTo(2);
        Answer cassette = fixture.get("/v1/runs/" + id + "/cassette");
        assertThat(cassette.status()).isEqualTo(200);
        assertThat(cassette.json().path("format").asText()).isEqualTo("planvm-cassette/1");
        assertThat(cassette.json().at("/interactions/0/tool").asText()).isEqualTo("echo");
        assertThat(cassette.json().at("/interactions/0/output/x").asText()).isEqualTo("hi");

        int echoes = fixture.echoes.get();
        JsonNode replayed = fixture.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(
                                PLAN,
                                "\"inputs\": {\"x\": \"hi\"}, \"mode\": \"replay\", \"cassette\": "
                                        + cassette.response().body()))
                .json();
        assertThat(replayed.path("state").asText()).as(replayed.toString()).isEqualTo("succeeded");
        assertThat(replayed.path("result").asText()).isEqualTo("hi");
        assertThat(fixture.echoes).as("the replay called nothing").hasValue(echoes);
        assertThat(fixture.get("/v1/runs/nosuchrun0/cassette").status()).isEqualTo(404);
    }

    @Test
    void the_run_list_searches_by_the_plans_name_and_the_start_of_an_id() throws Exception {
        String first = fixture.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(PLAN, "\"name\": \"Alpha-plan.json\", \"inputs\": {\"x\": 1}"))
                .json()
                .path("id")
                .asText();
        String second = fixture.post(
                        "/v1/runs?wait=true",
                        ServerFixture.runBody(PLAN, "\"name\": \"beta.json\", \"inputs\": {\"x\": 1}"))
                .json()
                .path("id")
                .asText();
        assertThat(ids(fixture.get("/v1/runs?q=alpha").json())).containsExactly(first);
        assertThat(ids(fixture.get("/v1/runs?q=" + second.substring(0, 5)).json()))
                .contains(second);
        assertThat(ids(fixture.get("/v1/runs?q=.json&limit=1").json())).containsExactly(second);
        JsonNode next = fixture.get("/v1/runs?q=.json&limit=1&offset=1").json();
        assertThat(ids(next)).containsExactly(first);
        assertThat(next.path("next_offset").isNull()).isTrue();
        assertThat(ids(fixture.get("/v1/runs?q=alpha&state=failed").json())).isEmpty();
    }

    @Test
    void replay_timing_goes_with_a_replay() throws Exception {
        Answer refused = fixture.post("/v1/runs", ServerFixture.runBody(PLAN, "\"replay_timing\": true"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.json().path("message").asText()).contains("replay_timing goes with \"mode\": \"replay\"");
    }

    private static java.util.List<String> ids(JsonNode list) {
        java.util.List<String> ids = new java.util.ArrayList<>();
        list.path("runs").forEach(run -> ids.add(run.path("id").asText()));
        return ids;
    }
}
