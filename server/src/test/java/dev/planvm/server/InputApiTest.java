package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/runs/{id}/input}: a run that calls {@code human_input} waits; a wrong answer is 422 with
 * the reason and the run keeps waiting, an answer to another input is 409, a cross-site one 403, and a right
 * one continues the run with the answer as the call's output. A real server on loopback, a real HTTP client.
 */
class InputApiTest {

    static final String ASK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "How many copies?", "schema": {"type": "integer", "minimum": 1}}, "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"n": "${n}"}, "output_vars": ["n"]}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${n * 2}"}}]""";

    @TempDir
    Path dir;

    @Test
    void a_wrong_answer_is_422_and_the_run_keeps_waiting_then_a_right_one_continues_it() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            Answer waiting = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(ASK, ""));
            assertThat(waiting.status()).isEqualTo(200);
            assertThat(waiting.json().path("state").asText()).isEqualTo("waiting");
            assertThat(waiting.json().path("error").asText())
                    .isEqualTo("seq_no 0 (calling): waiting for input: How many copies?");
            String id = waiting.json().path("id").asText();
            assertThat(waiting.json().at("/pending/kind").asText()).isEqualTo("input");
            String callId = waiting.json().at("/pending/call_id").asText();
            JsonNode stored = fixture.get("/v1/runs/" + id).json();
            assertThat(stored.at("/pending/call_id").asText()).isEqualTo(callId);
            assertThat(stored.at("/pending/params/prompt").asText()).isEqualTo("How many copies?");
            JsonNode listed = fixture.get("/v1/runs").json().path("runs").get(0);
            assertThat(listed.path("id").asText()).isEqualTo(id);
            assertThat(listed.path("waiting_for").asText())
                    .as("the run list says what it waits for")
                    .isEqualTo("input");
            assertThat(fixture.get("/v1/runs?q=" + id)
                            .json()
                            .at("/runs/0/waiting_for")
                            .asText())
                    .isEqualTo("input");

            Answer wrong = fixture.post(
                    "/v1/runs/" + id + "/input?wait=true", "{\"call_id\": \"" + callId + "\", \"value\": \"three\"}");
            assertThat(wrong.status()).isEqualTo(422);
            assertThat(wrong.json().path("message").asText())
                    .startsWith("run " + id + " keeps waiting: the answer \"three\" does not fit the schema");
            assertThat(fixture.get("/v1/runs/" + id).json().path("state").asText())
                    .isEqualTo("waiting");
            assertThat(fixture.post("/v1/runs/" + id + "/input", "{\"call_id\": \"step-9\", \"value\": 3}")
                            .status())
                    .isEqualTo(409);
            assertThat(fixture.post("/v1/runs/" + id + "/input", "{\"call_id\": \"" + callId + "\"}")
                            .status())
                    .as("no value")
                    .isEqualTo(400);
            Answer crossSite = fixture.send(fixture.request("/v1/runs/" + id + "/input")
                    .header("Content-Type", "application/json")
                    .header("Origin", "http://evil.example")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"call_id\": \"" + callId + "\", \"value\": 3}"))
                    .build());
            assertThat(crossSite.status()).isEqualTo(403);
            assertThat(fixture.echoes).hasValue(0);

            Answer right = fixture.post(
                    "/v1/runs/" + id + "/input?wait=true", "{\"call_id\": \"" + callId + "\", \"value\": 3}");
            assertThat(right.status()).as(right.response().body()).isEqualTo(200);
            assertThat(right.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(right.json().path("result").asInt()).isEqualTo(6);
            assertThat(fixture.echoes).hasValue(1);
            Answer twice = fixture.post("/v1/runs/" + id + "/input", "{\"call_id\": \"" + callId + "\", \"value\": 3}");
            assertThat(twice.status()).isEqualTo(409);
            assertThat(twice.json().path("message").asText())
                    .isEqualTo("run " + id + " does not wait for input (it is succeeded)");
        }
    }
}
