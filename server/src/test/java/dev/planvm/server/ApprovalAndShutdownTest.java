package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Human approval through the API (also across a restart of the server), graceful shutdown, and resume on start. */
class ApprovalAndShutdownTest {

    static final String MAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"to": "${who}@example.com"}, "output_vars": ["to"]}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"to": "${to}"}, "output_vars": "sent"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${sent}"}}]""";

    @TempDir
    Path dir;

    @Test
    void a_run_waits_for_approval_across_a_server_restart_and_approving_it_sends_once() throws Exception {
        Path store = dir.resolve("runs.db");
        String id;
        String callId;
        try (ServerFixture first = new ServerFixture(store, ServiceSettings.DEFAULT, ServerSettings.DEFAULT)) {
            Answer waiting = first.post(
                    "/v1/runs?wait=true",
                    ServerFixture.runBody(MAIL, "\"inputs\": {\"who\": \"ann\"}, \"approve_tools\": [\"send_*\"]"));
            assertThat(waiting.status()).isEqualTo(200);
            assertThat(waiting.json().path("state").asText()).isEqualTo("waiting");
            assertThat(waiting.json().path("error").asText())
                    .isEqualTo(
                            "seq_no 1 (calling): waiting for approval to call tool 'send_mail' with {\"to\":\"ann@example.com\"}");
            assertThat(waiting.json().at("/pending/params/to").asText()).isEqualTo("ann@example.com");
            id = waiting.json().path("id").asText();
            callId = waiting.json().at("/pending/call_id").asText();
            assertThat(first.mails).hasValue(0);
            assertThat(first.get("/v1/runs?state=waiting").json().path("runs")).hasSize(1);
        }
        try (ServerFixture second = new ServerFixture(store, ServiceSettings.DEFAULT, ServerSettings.DEFAULT)) {
            JsonNode stored = second.get("/v1/runs/" + id).json();
            assertThat(stored.path("state").asText()).isEqualTo("waiting");
            assertThat(stored.at("/pending/tool").asText()).isEqualTo("send_mail");
            String call = stored.at("/pending/call_id").asText();
            assertThat(call)
                    .as("the same call, named the same after the restart")
                    .isEqualTo(callId);
            assertThat(second.post("/v1/runs/" + id + "/resume", "").status())
                    .as("a waiting run is approved, not resumed")
                    .isEqualTo(409);
            Answer approved = second.post(
                    "/v1/runs/" + id + "/approve?wait=true",
                    "{\"call_id\": \"" + call + "\", \"approved\": true, \"reason\": \"ok\"}");
            assertThat(approved.status()).isEqualTo(200);
            assertThat(approved.json().path("result").asText()).isEqualTo("sent to ann@example.com");
            assertThat(second.mails).hasValue(1);
            assertThat(second.echoes)
                    .as("the committed step before the wait is not run again")
                    .hasValue(0);
            JsonNode done = second.get("/v1/runs/" + id).json();
            assertThat(done.path("approvals")).singleElement().satisfies(a -> {
                assertThat(a.path("decision").asText()).isEqualTo("approved");
                assertThat(a.path("reason").asText()).isEqualTo("ok");
            });
            Answer twice = second.post("/v1/runs/" + id + "/approve", "{\"call_id\": \"" + call + "\"}");
            assertThat(twice.status()).isEqualTo(409);
            assertThat(twice.json().path("message").asText())
                    .isEqualTo("run " + id + " does not wait for approval (it is succeeded)");
        }
    }

    @Test
    void a_denied_call_fails_its_step_with_the_reason_and_a_waiting_run_can_be_cancelled() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String body =
                    ServerFixture.runBody(MAIL, "\"inputs\": {\"who\": \"bo\"}, \"approve_tools\": [\"send_mail\"]");
            JsonNode waiting = fixture.post("/v1/runs?wait=true", body).json();
            Answer answer = fixture.post(
                    "/v1/runs/" + waiting.path("id").asText() + "/approve?wait=true",
                    "{\"call_id\": \"" + waiting.at("/pending/call_id").asText()
                            + "\", \"approved\": false, \"reason\": \"wrong person\"}");
            assertThat(answer.json().path("state").asText()).isEqualTo("failed");
            assertThat(answer.json().path("error").asText())
                    .isEqualTo("seq_no 1 (calling): tool 'send_mail' failed: denied by a reviewer: wrong person");
            String cancelled =
                    fixture.post("/v1/runs?wait=true", body).json().path("id").asText();
            assertThat(fixture.post("/v1/runs/" + cancelled + "/cancel", "{\"reason\": \"no longer needed\"}")
                            .status())
                    .isEqualTo(202);
            JsonNode run = fixture.get("/v1/runs/" + cancelled).json();
            assertThat(run.path("state").asText()).isEqualTo("failed");
            assertThat(run.path("error").asText())
                    .isEqualTo("the run was cancelled while waiting for approval: no longer needed");
            assertThat(fixture.mails).hasValue(0);
        }
    }

    @Test
    void a_stopping_server_lets_a_step_reach_its_commit_point_and_a_new_server_resumes_the_interrupted_run()
            throws Exception {
        Path store = dir.resolve("runs.db");
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "gate", "output_vars": "g"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"g": "${g}"}, "output_vars": "e"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${e.g}"}}]""";
        String id;
        try (ServerFixture first = new ServerFixture(store, ServiceSettings.DEFAULT, ServerSettings.DEFAULT)) {
            id = first.post("/v1/runs", ServerFixture.runBody(plan, ""))
                    .json()
                    .path("id")
                    .asText();
            assertThat(first.gateReached.await(60, TimeUnit.SECONDS)).isTrue();
            Thread opener = new Thread(() -> {
                ServerFixture.sleep(200);
                first.open();
            });
            opener.start();
            List<String> late = first.server.stop(Duration.ofSeconds(10));
            opener.join();
            assertThat(late)
                    .as("the step reached its commit point within the grace period")
                    .isEmpty();
            assertThat(first.echoes).hasValue(0);
            assertThat(first.runStore.summary(id).orElseThrow().state()).isEqualTo("interrupted");
            assertThat(first.runStore.find(id).orElseThrow().steps()).hasSize(1);
        }
        try (ServerFixture second = new ServerFixture(store, ServiceSettings.DEFAULT, ServerSettings.DEFAULT)) {
            assertThat(second.service.resumeInterrupted()).isEqualTo(1);
            JsonNode done = await(second, id, "succeeded");
            assertThat(done.path("result").asText()).as(done.toString()).isEqualTo("through");
            assertThat(done.path("sessions").asInt()).isEqualTo(2);
            assertThat(second.echoes).hasValue(1);
        }
    }

    @Test
    void runs_still_in_a_step_after_the_grace_period_are_left_interrupted() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String id = fixture.post(
                            "/v1/runs",
                            ServerFixture.runBody(
                                    "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": "
                                            + "{\"tool_name\": \"gate\"}}]",
                                    ""))
                    .json()
                    .path("id")
                    .asText();
            assertThat(fixture.gateReached.await(60, TimeUnit.SECONDS)).isTrue();
            List<String> late = fixture.server.stop(Duration.ofMillis(200));
            assertThat(late).containsExactly(id);
            assertThat(fixture.runStore.summary(id).orElseThrow().state()).isEqualTo("interrupted");
            assertThat(fixture.service
                            .list(null, 10, 0)
                            .path("runs")
                            .get(0)
                            .path("state")
                            .asText())
                    .isEqualTo("interrupted");
        }
    }

    private static JsonNode await(ServerFixture fixture, String id, String state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        JsonNode run;
        do {
            run = fixture.get("/v1/runs/" + id).json();
            if (run.path("state").asText().equals(state)) {
                return run;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("run " + id + " is " + run.path("state") + ": " + run);
    }
}
