package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.http.PlanServer;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every endpoint of the HTTP API and its errors, through the JDK's HTTP client on 127.0.0.1. */
class HttpApiTest {

    static final String HELLO = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"text": "${name}"}, "output_vars": ["text"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "hello ${text}"}}]""";

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
    void health_answers_ok() throws Exception {
        Answer health = fixture.get("/healthz");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().path("status").asText()).isEqualTo("ok");
    }

    @Test
    void a_run_with_wait_answers_its_outcome_and_is_stored_with_its_trace() throws Exception {
        Answer run =
                fixture.post("/v1/runs?wait=true", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"Ann\"}"));
        assertThat(run.status()).isEqualTo(200);
        assertThat(run.json().path("state").asText()).isEqualTo("succeeded");
        assertThat(run.json().path("result").asText()).isEqualTo("hello Ann");
        assertThat(run.json().path("steps").asInt()).isEqualTo(2);
        String id = run.json().path("id").asText();
        assertThat(run.header("Location")).isEqualTo("/v1/runs/" + id);
        Answer stored = fixture.get("/v1/runs/" + id);
        assertThat(stored.status()).isEqualTo(200);
        assertThat(stored.json().path("state").asText()).isEqualTo("succeeded");
        assertThat(stored.json().path("inputs").path("name").asText()).isEqualTo("Ann");
        assertThat(stored.json().path("steps")).hasSize(2);
        assertThat(stored.json().at("/steps/0/inputs/output/text").asText()).isEqualTo("Ann");
        assertThat(stored.json().at("/options/origin").isMissingNode())
                .as("the origin is internal")
                .isTrue();
    }

    @Test
    void keep_going_runs_past_failed_steps_and_lists_them() throws Exception {
        String plan = """
                [{"seq_no": 0, "type": "assign", "parameters": {"x": "${missing.y}"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "went on"}}]""";
        Answer run = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(plan, "\"keep_going\": true"));
        assertThat(run.status()).isEqualTo(200);
        assertThat(run.json().path("state").asText()).isEqualTo("completed_with_failures");
        assertThat(run.json().path("result").asText()).isEqualTo("went on");
        assertThat(run.json().path("failed_steps")).hasSize(1);
        assertThat(run.json().at("/failed_steps/0/seq_no").asInt()).isZero();
        assertThat(run.json().at("/failed_steps/0/kind").asText()).isEqualTo("step_failed");
        Answer stored = fixture.get("/v1/runs/" + run.json().path("id").asText());
        assertThat(stored.json().at("/options/keep_going").asBoolean()).isTrue();
        assertThat(stored.json().at("/steps/0/handled").asText()).isEqualTo("keep_going");
        assertThat(stored.json().path("state").asText()).isEqualTo("completed_with_failures");
        Answer listed = fixture.get("/v1/runs?state=completed_with_failures");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().path("runs"))
                .extracting(r -> r.path("id").asText())
                .contains(run.json().path("id").asText());
        assertThat(fixture.get("/v1/runs?state=succeeded").json().path("runs"))
                .extracting(r -> r.path("id").asText())
                .doesNotContain(run.json().path("id").asText());

        Answer stopped = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(plan, ""));
        assertThat(stopped.json().path("state").asText()).isEqualTo("failed");
        assertThat(stopped.json().has("failed_steps")).isFalse();
    }

    @Test
    void a_run_without_wait_is_accepted_at_once_with_where_to_look() throws Exception {
        Answer run = fixture.post("/v1/runs", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"Bo\"}"));
        assertThat(run.status()).isEqualTo(202);
        assertThat(run.json().path("state").asText()).isEqualTo("running");
        String id = run.json().path("id").asText();
        assertThat(run.json().at("/links/events").asText()).isEqualTo("/v1/runs/" + id + "/events");
        JsonNode done = awaitState(id, "succeeded");
        assertThat(done.path("result").asText()).isEqualTo("hello Bo");
    }

    @Test
    void runs_are_listed_most_recent_first_filtered_by_state_and_paged() throws Exception {
        for (int i = 0; i < 3; i++) {
            fixture.post("/v1/runs?wait=true", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"n" + i + "\"}"));
        }
        fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(
                        "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": " + "{\"x\": \"${missing}\"}}]", ""));
        Answer page = fixture.get("/v1/runs?limit=2");
        assertThat(page.json().path("runs")).hasSize(2);
        assertThat(page.json().path("next_offset").asInt()).isEqualTo(2);
        Answer rest = fixture.get("/v1/runs?limit=2&offset=2");
        assertThat(rest.json().path("runs")).hasSize(2);
        Answer failed = fixture.get("/v1/runs?state=failed");
        assertThat(failed.json().path("runs"))
                .singleElement()
                .satisfies(r -> assertThat(r.path("state").asText()).isEqualTo("failed"));
        assertThat(fixture.get("/v1/runs?state=succeeded").json().path("runs")).hasSize(3);
        Answer bad = fixture.get("/v1/runs?state=done");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.json().path("message").asText())
                .contains("state must be running, interrupted, waiting, succeeded, completed_with_failures or failed");
        assertThat(fixture.get("/v1/runs?limit=0").status()).isEqualTo(400);
    }

    @Test
    void validate_reports_every_located_diagnostic_and_what_stops_a_valid_plan_from_running_here() throws Exception {
        Answer valid = fixture.post("/v1/validate", "{\"plan\": " + HELLO + "}");
        assertThat(valid.status()).isEqualTo(200);
        assertThat(valid.json().path("valid").asBoolean()).isTrue();
        assertThat(valid.json().path("runnable").asBoolean()).isTrue();
        assertThat(valid.json().path("instructions").asInt()).isEqualTo(2);
        Answer invalid = fixture.post(
                "/v1/validate",
                "{\"name\": \"bad.json\", \"plan\": [{\"seq_no\": 0, \"type\": \"asign\", "
                        + "\"parameters\": {}}, {\"seq_no\": 1, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 9}}]}");
        assertThat(invalid.json().path("valid").asBoolean()).isFalse();
        assertThat(invalid.json().path("diagnostics").findValuesAsText("line"))
                .contains(
                        "bad.json: seq_no 0 at /0/type: unknown instruction type 'asign': did you mean 'assign'?",
                        "bad.json: seq_no 1 at /1/parameters/target_seq: jump target 9 is not a seq_no of this plan (they run from 0 to 1)");
        Answer text = fixture.post("/v1/validate", "{\"name\": \"t.json\", \"plan\": \"[{\\\"seq_no\\\": 0,,]\"}");
        assertThat(text.json().path("diagnostics").get(0).path("line").asText())
                .startsWith("t.json")
                .contains("line 1, column");
        Answer notHere = fixture.post(
                "/v1/validate",
                "{\"plan\": [{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": "
                        + "{\"tool_name\": \"web_search\"}}]}");
        assertThat(notHere.json().path("valid").asBoolean()).isTrue();
        assertThat(notHere.json().path("runnable").asBoolean()).isFalse();
        assertThat(notHere.json().path("problems").get(0).asText())
                .startsWith("seq_no 0: tool 'web_search' is not installed");
    }

    @Test
    void an_invalid_plan_is_refused_with_422_and_its_diagnostics() throws Exception {
        Answer refused = fixture.post(
                "/v1/runs?wait=true",
                "{\"name\": \"p.json\", \"plan\": [{\"seq_no\": 0, \"type\": \"assign\", "
                        + "\"parameters\": {\"x\": \"${a +}\"}}]}");
        assertThat(refused.status()).isEqualTo(422);
        assertThat(refused.json().path("error").asText()).isEqualTo("invalid_plan");
        assertThat(refused.json().path("message").asText())
                .startsWith("p.json is not a valid plan: 1 error, the first: p.json: seq_no 0 at");
        assertThat(refused.json().at("/details/diagnostics/0/pointer").asText()).isEqualTo("/0/parameters/x");
        assertThat(fixture.get("/v1/runs").json().path("runs"))
                .as("nothing stored")
                .isEmpty();
    }

    @Test
    void a_plan_that_cannot_run_here_is_rejected_and_a_requests_tool_policy_narrows_the_servers() throws Exception {
        Answer missing = fixture.post(
                "/v1/runs",
                "{\"plan\": [{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": "
                        + "{\"tool_name\": \"web_search\"}}]}");
        assertThat(missing.status()).isEqualTo(422);
        assertThat(missing.json().path("error").asText()).isEqualTo("rejected");
        assertThat(missing.json().at("/details/problems/0").asText())
                .startsWith("seq_no 0: tool 'web_search' is not installed");
        Answer denied = fixture.post("/v1/runs", ServerFixture.runBody(HELLO, "\"deny_tools\": [\"ec*\"]"));
        assertThat(denied.status()).isEqualTo(422);
        assertThat(denied.json().path("message").asText())
                .contains("seq_no 0: tool 'echo' is denied by this run's tool policy (deny rule 'ec*')");
    }

    @Test
    void malformed_requests_are_answered_400_with_where_the_problem_is() throws Exception {
        Answer notJson = fixture.post("/v1/runs", "{\"plan\": [1,}");
        assertThat(notJson.status()).isEqualTo(400);
        assertThat(notJson.json().path("error").asText()).isEqualTo("bad_request");
        assertThat(notJson.json().path("message").asText())
                .startsWith("the request body is not valid JSON: line 1, column 13");
        Answer typo = fixture.post("/v1/runs", ServerFixture.runBody(HELLO, "\"input\": {}"));
        assertThat(typo.status()).isEqualTo(400);
        assertThat(typo.json().path("message").asText())
                .startsWith("/input: unknown field 'input' (did you mean 'inputs'?)");
        Answer mode = fixture.post("/v1/runs", ServerFixture.runBody(HELLO, "\"mode\": \"fast\""));
        assertThat(mode.json().path("message").asText())
                .isEqualTo("/mode: must be \"live\", \"replay\" or \"dry-run\", not \"fast\"");
        assertThat(mode.json().at("/details/pointer").asText()).isEqualTo("/mode");
        Answer duplicate = fixture.post("/v1/runs", "{\"plan\": [], \"plan\": []}");
        assertThat(duplicate.json().path("message").asText()).contains("Duplicate field 'plan'");
        Answer deep = fixture.post("/v1/runs", "{\"plan\": " + "[".repeat(2000) + "]".repeat(2000) + "}");
        assertThat(deep.status()).isEqualTo(400);
        assertThat(deep.json().path("message").asText()).contains("nesting depth");
        assertThat(fixture.post("/v1/runs", "").json().path("message").asText()).contains("the request body is empty");
        for (Answer answer : new Answer[] {notJson, typo, mode, duplicate, deep}) {
            assertThat(answer.response().body()).doesNotContain("at dev.planvm").doesNotContain("Exception");
        }
    }

    @Test
    void unknown_paths_methods_and_runs_have_their_own_errors() throws Exception {
        Answer path = fixture.get("/v2/runs");
        assertThat(path.status()).isEqualTo(404);
        assertThat(path.json().path("error").asText()).isEqualTo("not_found");
        Answer method = fixture.send(fixture.request("/v1/runs").DELETE().build());
        assertThat(method.status()).isEqualTo(405);
        assertThat(method.header("Allow")).isEqualTo("GET, POST");
        Answer run = fixture.get("/v1/runs/0123456789ab");
        assertThat(run.status()).isEqualTo(404);
        assertThat(run.json().path("error").asText()).isEqualTo("no_such_run");
        assertThat(run.json().path("message").asText()).startsWith("no run '0123456789ab'");
    }

    @Test
    void a_body_over_the_limit_is_refused_413_without_being_read() throws Exception {
        try (ServerFixture small = new ServerFixture(
                dir.resolve("small.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.builder().maxBodyBytes(4096).build())) {
            Answer big = small.post(
                    "/v1/runs", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"" + "x".repeat(10_000) + "\"}"));
            assertThat(big.status()).isEqualTo(413);
            assertThat(big.json().path("error").asText()).isEqualTo("too_large");
            assertThat(big.json().path("message").asText())
                    .isEqualTo("the request body is larger than 4096 bytes, the most this server reads");
        }
    }

    @Test
    void replays_and_dry_runs_call_nothing_real() throws Exception {
        String plan = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"vector_search\", "
                + "\"tool_params\": {\"q\": \"tidb\"}, \"output_vars\": \"final_answer\"}}]";
        String cassette =
                "{\"format\": \"planvm-cassette/1\", \"interactions\": [{\"type\": \"tool\", \"tool\": \"vector_search\", "
                        + "\"params\": {\"q\": \"tidb\"}, \"output\": \"recorded\"}]}";
        Answer replay = fixture.post(
                "/v1/runs?wait=true", ServerFixture.runBody(plan, "\"mode\": \"replay\", \"cassette\": " + cassette));
        assertThat(replay.json().path("result").asText()).isEqualTo("recorded");
        Answer dry = fixture.post(
                "/v1/runs?wait=true",
                ServerFixture.runBody(HELLO, "\"mode\": \"dry-run\", \"inputs\": {\"name\": \"x\"}"));
        assertThat(dry.json().path("state").asText()).isEqualTo("succeeded");
        assertThat(fixture.echoes).hasValue(0);
        Answer broken = fixture.post(
                "/v1/runs", ServerFixture.runBody(plan, "\"mode\": \"replay\", \"cassette\": {\"format\": \"x\"}"));
        assertThat(broken.status()).isEqualTo(400);
        assertThat(broken.json().path("message").asText())
                .startsWith("/cassette: the request's cassette: not a cassette");
    }

    @Test
    void a_failed_run_can_be_resumed_and_rerun_from_a_step_with_edited_inputs() throws Exception {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"v": 1}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a.v + n}"}}]""";
        Answer failed = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(plan, ""));
        assertThat(failed.json().path("state").asText()).isEqualTo("failed");
        assertThat(failed.json().path("error").asText())
                .startsWith("seq_no 1 (assign): ${a.v + n}: variable 'n' is not set");
        String id = failed.json().path("id").asText();
        Answer rerun =
                fixture.post("/v1/runs/" + id + "/rerun?wait=true", "{\"from_seq\": 1, \"inputs\": {\"n\": 41}}");
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.json().path("result").asInt()).isEqualTo(42);
        assertThat(rerun.json().path("parent_run").asText()).isEqualTo(id);
        assertThat(fixture.echoes).as("the kept call is not made again").hasValue(1);
        Answer resumed = fixture.post("/v1/runs/" + id + "/resume?wait=true", "");
        assertThat(resumed.json().path("state").asText()).isEqualTo("failed");
        Answer again = fixture.post("/v1/runs/" + rerun.json().path("id").asText() + "/resume", "");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.json().path("message").asText()).contains("already succeeded");
        assertThat(fixture.post("/v1/runs/" + id + "/rerun", "{}")
                        .json()
                        .path("message")
                        .asText())
                .isEqualTo("/from_seq: a rerun needs from_seq: the seq_no to run from");
    }

    @Test
    void a_running_run_can_be_cancelled_and_stops_before_its_next_step() throws Exception {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "gate", "output_vars": "g"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"g": "${g}"}, "output_vars": "e"}}]""";
        String id = fixture.post("/v1/runs", ServerFixture.runBody(plan, ""))
                .json()
                .path("id")
                .asText();
        assertThat(fixture.gateReached.await(10, java.util.concurrent.TimeUnit.SECONDS))
                .isTrue();
        Answer cancel = fixture.post("/v1/runs/" + id + "/cancel", "{\"reason\": \"changed my mind\"}");
        assertThat(cancel.status()).isEqualTo(202);
        fixture.open();
        JsonNode done = awaitState(id, "failed");
        assertThat(done.path("error").asText())
                .isEqualTo("seq_no 1 (calling): the run was cancelled before this step: changed my mind");
        assertThat(done.path("steps")).as("the step in progress committed").hasSize(1);
        assertThat(fixture.echoes).hasValue(0);
        Answer late = fixture.post("/v1/runs/" + id + "/cancel", "");
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.json().path("message").asText())
                .isEqualTo("run " + id + " is failed and does not run in this server: " + "there is nothing to cancel");
    }

    @Test
    void a_busy_server_answers_429_with_retry_after() throws Exception {
        try (ServerFixture one = new ServerFixture(
                dir.resolve("one.db"), ServiceSettings.DEFAULT.withMaxActiveRuns(1), ServerSettings.DEFAULT)) {
            String plan = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"gate\"}}]";
            assertThat(one.post("/v1/runs", ServerFixture.runBody(plan, "")).status())
                    .isEqualTo(202);
            Answer busy = one.post("/v1/runs", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"x\"}"));
            assertThat(busy.status()).isEqualTo(429);
            assertThat(busy.header("Retry-After")).isEqualTo("1");
            assertThat(busy.json().path("error").asText()).isEqualTo("busy");
            one.open();
        }
    }

    @Test
    void tools_schema_openapi_and_metrics_are_served() throws Exception {
        fixture.post("/v1/runs?wait=true", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"m\"}"));
        Answer tools = fixture.get("/v1/tools");
        assertThat(tools.json().path("tools").findValuesAsText("name")).contains("echo", "gate", "send_mail");
        assertThat(tools.json().path("tools").findValues("side_effects")).anyMatch(JsonNode::asBoolean);
        Answer schema = fixture.get("/v1/schema");
        assertThat(schema.json().path("$schema").asText()).contains("2020-12");
        Answer openapi = fixture.get("/openapi.json");
        assertThat(openapi.json().path("openapi").asText()).isEqualTo("3.1.0");
        Answer metrics = fixture.get("/metrics");
        assertThat(metrics.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        assertThat(metrics.response().body())
                .contains("planvm_runs_total{status=\"succeeded\"} 1")
                .contains("planvm_runs_stored{status=\"succeeded\"} 1")
                .contains("planvm_steps_total 2")
                .contains("planvm_call_duration_seconds_bucket{tool=\"echo\",le=\"+Inf\"} 1")
                .contains("planvm_call_duration_seconds_count{tool=\"echo\"} 1")
                .contains("planvm_calls_in_flight 0")
                .contains("planvm_runs_active 0")
                .contains("planvm_tool_concurrency_limit{tool=\"echo\"} 256")
                .contains("planvm_tool_calls_waiting{tool=\"echo\"} 0")
                .contains("planvm_tool_throttled_total{tool=\"echo\"} 0")
                .contains("planvm_tool_slot_waits_total{tool=\"echo\"} 0")
                .contains("planvm_http_responses_total{code=\"200\"}");
    }

    @Test
    void the_report_of_a_run_is_one_html_page() throws Exception {
        String id = fixture.post(
                        "/v1/runs?wait=true", ServerFixture.runBody(HELLO, "\"inputs\": {\"name\": \"<b>x</b>\"}"))
                .json()
                .path("id")
                .asText();
        Answer report = fixture.get("/runs/" + id);
        assertThat(report.status()).isEqualTo(200);
        assertThat(report.header("Content-Type")).startsWith("text/html");
        assertThat(report.response().body())
                .contains("<script type=\"application/json\" id=\"report-data\">", "\"graph\":", "\"timeline\":")
                .contains("\\u003cb\\u003ex\\u003c/b\\u003e")
                .doesNotContain("<b>x</b>");
    }

    @Test
    void a_token_server_refuses_requests_without_the_token_and_a_public_address_needs_one() throws Exception {
        String token = "s3cret-token-0123456789";
        try (ServerFixture guarded = new ServerFixture(
                dir.resolve("guarded.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.builder().token(token).build())) {
            assertThat(guarded.get("/v1/tools").status())
                    .as("the fixture sends the token")
                    .isEqualTo(200);
            HttpRequest none = HttpRequest.newBuilder(java.net.URI.create(guarded.url("/v1/tools")))
                    .GET()
                    .build();
            Answer refused = guarded.send(none);
            assertThat(refused.status()).isEqualTo(401);
            assertThat(refused.header("WWW-Authenticate")).startsWith("Bearer");
            assertThat(refused.json().path("error").asText()).isEqualTo("unauthorized");
            assertThat(refused.response().body()).doesNotContain(token);
            HttpRequest wrong = HttpRequest.newBuilder(java.net.URI.create(guarded.url("/v1/tools")))
                    .header("Authorization", "Bearer " + token.substring(1) + "x")
                    .GET()
                    .build();
            assertThat(guarded.send(wrong).status()).isEqualTo(401);
            HttpRequest health = HttpRequest.newBuilder(java.net.URI.create(guarded.url("/healthz")))
                    .GET()
                    .build();
            assertThat(guarded.send(health).status()).isEqualTo(200);
        }
        assertThatThrownBy(() -> PlanServer.start(
                        fixture.service,
                        ServerSettings.builder().bind("0.0.0.0").port(0).build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "listening on 0.0.0.0, which is not a loopback address, needs a bearer token (--token-file FILE): "
                                + "anyone who can reach it could run plans");
    }

    private JsonNode awaitState(String id, String state) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        JsonNode run;
        do {
            run = fixture.get("/v1/runs/" + id).json();
            if (run.path("state").asText().equals(state)) {
                return run;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " is " + run.path("state") + ", not " + state + ": " + run);
    }
}
