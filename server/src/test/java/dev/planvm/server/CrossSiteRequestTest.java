package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.testing.RawHttp;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a web page in a browser on the same machine can make the server do, tried the way a page would: a
 * "simple" cross-origin POST (no preflight), a DNS-rebound name in {@code Host}, a blind POST to approve, and
 * guessing run ids. Real server on 127.0.0.1, real JDK client (raw sockets where it will not send a header).
 */
class CrossSiteRequestTest {

    private static final String PLAN = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": "
            + "{\"tool_name\": \"echo\", \"tool_params\": {\"x\": 1}, \"output_vars\": \"out\"}}]";

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
    void a_simple_cross_origin_post_starts_no_run() throws Exception {
        Answer answer = fixture.send(fixture.request("/v1/runs?wait=true")
                .header("Content-Type", "text/plain;charset=UTF-8")
                .header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.runBody(PLAN, "")))
                .build());

        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.json().path("error").asText()).isEqualTo("forbidden");
        assertThat(answer.header("Access-Control-Allow-Origin")).isNull();
        assertThat(runs()).as("no run was started").isEmpty();
        assertThat(fixture.echoes).hasValue(0);
    }

    @Test
    void a_post_that_is_not_json_is_refused_with_415_and_starts_nothing() throws Exception {
        for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data"}) {
            Answer answer = fixture.send(fixture.request("/v1/runs")
                    .header("Content-Type", type)
                    .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.runBody(PLAN, "")))
                    .build());
            assertThat(answer.status()).as(type).isEqualTo(415);
            assertThat(answer.json().path("error").asText()).isEqualTo("unsupported_media_type");
        }
        Answer untyped = fixture.send(fixture.request("/v1/runs")
                .POST(HttpRequest.BodyPublishers.ofString(ServerFixture.runBody(PLAN, "")))
                .build());
        assertThat(untyped.status()).as("no Content-Type at all").isEqualTo(415);
        assertThat(fixture.post("/v1/validate", "{\"plan\": " + PLAN + "}").status())
                .as("application/json is served")
                .isEqualTo(200);
        assertThat(runs()).isEmpty();
    }

    @Test
    void a_foreign_host_is_refused_so_a_rebound_name_reaches_nothing() throws Exception {
        int port = fixture.server.port();
        RawHttp.Answer started = RawHttp.send(
                port,
                RawHttp.head("POST", "/v1/runs", "evil.example:" + port, "Content-Type: application/json"),
                ServerFixture.runBody(PLAN, ""));
        assertThat(started.status()).isEqualTo(403);
        assertThat(started.body()).contains("\"forbidden\"", "evil.example");

        RawHttp.Answer listed = RawHttp.send(port, RawHttp.head("GET", "/v1/runs", "evil.example:" + port), "");
        assertThat(listed.status())
                .as("nothing is read through a rebound name either")
                .isEqualTo(403);
        assertThat(listed.body()).doesNotContain("\"runs\"");

        RawHttp.Answer otherPort =
                RawHttp.send(port, RawHttp.head("GET", "/v1/runs", "127.0.0.1:" + (port == 1 ? 2 : port - 1)), "");
        assertThat(otherPort.status()).as("the bound address, but another port").isEqualTo(403);
        assertThat(runs()).isEmpty();
    }

    @Test
    void the_bound_address_and_localhost_name_this_server() throws Exception {
        int port = fixture.server.port();
        for (String host : new String[] {"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port}) {
            RawHttp.Answer answer = RawHttp.send(port, RawHttp.head("GET", "/v1/runs", host), "");
            assertThat(answer.status()).as(host).isEqualTo(200);
        }
    }

    @Test
    void answers_carry_no_cors_headers_and_reads_from_a_foreign_origin_are_refused() throws Exception {
        Answer own = fixture.get("/v1/runs");
        assertThat(own.status()).isEqualTo(200);
        assertThat(own.header("Access-Control-Allow-Origin")).isNull();

        for (String path : new String[] {"/v1/runs", "/v1/tools", "/metrics", "/openapi.json"}) {
            Answer foreign = fixture.send(fixture.request(path)
                    .header("Origin", "http://evil.example")
                    .GET()
                    .build());
            assertThat(foreign.status()).as(path).isEqualTo(403);
            assertThat(foreign.header("Access-Control-Allow-Origin")).isNull();
        }
        Answer preflight = fixture.send(fixture.request("/v1/runs")
                .header("Origin", "http://evil.example")
                .header("Access-Control-Request-Method", "POST")
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .build());
        assertThat(preflight.status()).isEqualTo(403);
        assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
    }

    @Test
    void an_event_stream_from_a_foreign_origin_is_refused() throws Exception {
        String id = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(PLAN, ""))
                .json()
                .path("id")
                .asText();
        Answer events = fixture.send(fixture.request("/v1/runs/" + id + "/events")
                .header("Origin", "null")
                .header("Accept", "text/event-stream")
                .GET()
                .build());
        assertThat(events.status()).isEqualTo(403);
        assertThat(events.response().body()).doesNotContain("event:");
    }

    @Test
    void a_blind_post_to_approve_approves_nothing() throws Exception {
        String id = waitingRun();
        String approve = "/v1/runs/" + id + "/approve?wait=true";

        Answer untyped = fixture.send(fixture.request(approve)
                .POST(HttpRequest.BodyPublishers.noBody())
                .build());
        assertThat(untyped.status())
                .as("an empty POST, as a form or a beacon sends it")
                .isEqualTo(415);
        assertThat(fixture.post(approve, "").status()).as("JSON, but no body").isEqualTo(400);
        Answer bare = fixture.post(approve, "{\"approved\": true}");
        assertThat(bare.status()).as("approved, but which call?").isEqualTo(400);
        assertThat(bare.json().path("message").asText()).contains("call_id");

        JsonNode run = fixture.get("/v1/runs/" + id).json();
        assertThat(run.path("state").asText()).isEqualTo("waiting");
        assertThat(run.at("/pending/decision").isNull()).isTrue();
        assertThat(fixture.mails).hasValue(0);
    }

    @Test
    void an_approval_names_the_call_the_run_waits_for() throws Exception {
        Answer waiting =
                fixture.post("/v1/runs?wait=true", ServerFixture.runBody(ApprovalAndShutdownTest.MAIL, MAIL_INPUTS));
        String id = waiting.json().path("id").asText();
        String callId = waiting.json().at("/pending/call_id").asText();
        assertThat(callId).as("the outcome names the call it waits for").isNotEmpty();
        JsonNode stored = fixture.get("/v1/runs/" + id).json();
        assertThat(stored.at("/pending/call_id").asText()).isEqualTo(callId);

        Answer wrong =
                fixture.post("/v1/runs/" + id + "/approve?wait=true", "{\"call_id\": \"c0ffee\", \"approved\": true}");
        assertThat(wrong.status()).isEqualTo(409);
        assertThat(wrong.json().path("message").asText()).contains("does not wait for call 'c0ffee'");
        assertThat(fixture.mails).hasValue(0);

        Answer right = fixture.post(
                "/v1/runs/" + id + "/approve?wait=true", "{\"call_id\": \"" + callId + "\", \"approved\": true}");
        assertThat(right.status()).isEqualTo(200);
        assertThat(right.json().path("result").asText()).isEqualTo("sent to ann@example.com");
        assertThat(fixture.mails).hasValue(1);
        assertThat(fixture.get("/v1/runs/" + id)
                        .json()
                        .at("/approvals/0/call_id")
                        .asText())
                .isEqualTo(callId);
    }

    @Test
    void run_ids_match_exactly_so_a_prefix_finds_no_run() throws Exception {
        String id = waitingRun();
        for (String guess : new String[] {id.substring(0, 1), id.substring(0, id.length() - 1)}) {
            assertThat(fixture.get("/v1/runs/" + guess).status()).as(guess).isEqualTo(404);
            assertThat(fixture.get("/runs/" + guess).status())
                    .as("report " + guess)
                    .isEqualTo(404);
            assertThat(fixture.get("/v1/runs/" + guess + "/events").status()).isEqualTo(404);
            Answer approve = fixture.post("/v1/runs/" + guess + "/approve", "{\"call_id\": \"x\", \"approved\": true}");
            assertThat(approve.status()).isEqualTo(404);
            assertThat(approve.json().path("message").asText())
                    .as("says nothing of the runs it would have named")
                    .isEqualTo("no run '" + guess + "'");
            assertThat(fixture.post("/v1/runs/" + guess + "/cancel", "{}").status())
                    .isEqualTo(404);
        }
        assertThat(fixture.get("/v1/runs/" + id).status()).isEqualTo(200);
        String upper = id.toUpperCase(java.util.Locale.ROOT);
        if (!upper.equals(id)) {
            assertThat(fixture.get("/v1/runs/" + upper).status()).isEqualTo(404);
        }
        assertThat(fixture.mails).hasValue(0);
    }

    private static final String MAIL_INPUTS = "\"inputs\": {\"who\": \"ann\"}, \"approve_tools\": [\"send_*\"]";

    private String waitingRun() throws Exception {
        Answer waiting =
                fixture.post("/v1/runs?wait=true", ServerFixture.runBody(ApprovalAndShutdownTest.MAIL, MAIL_INPUTS));
        assertThat(waiting.json().path("state").asText()).isEqualTo("waiting");
        return waiting.json().path("id").asText();
    }

    private JsonNode runs() {
        return fixture.service.list(null, 50, 0).path("runs");
    }
}
