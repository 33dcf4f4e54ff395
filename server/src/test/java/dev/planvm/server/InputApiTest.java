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

    static final String ASK_NAME = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "Name?", "schema": {"type": "string"}}, "output_vars": "final_answer"}}]""";

    static final String ASK_NUMBER = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "tool_params": {"prompt": "How much?", "schema": {"type": "number"}}, "output_vars": "final_answer"}}]""";

    /** Starts a run of {@code plan}, which waits for input; returns {id, call_id}. */
    private static String[] waitingRun(ServerFixture fixture, String plan) throws Exception {
        Answer waiting = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(plan, ""));
        assertThat(waiting.json().path("state").asText()).isEqualTo("waiting");
        return new String[] {
            waiting.json().path("id").asText(),
            waiting.json().at("/pending/call_id").asText()
        };
    }

    private static Answer answer(ServerFixture fixture, String[] run, String valueJson) throws Exception {
        return fixture.post(
                "/v1/runs/" + run[0] + "/input?wait=true",
                "{\"call_id\": \"" + run[1] + "\", \"value\": " + valueJson + "}");
    }

    @Test
    void an_answer_larger_than_a_variable_may_hold_is_422_and_the_run_keeps_waiting() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String[] run = waitingRun(fixture, ASK_NAME);
            Answer tooLarge = answer(fixture, run, "\"" + "x".repeat(6 << 20) + "\"");
            assertThat(tooLarge.status()).isEqualTo(422);
            assertThat(tooLarge.json().path("message").asText())
                    .isEqualTo("run " + run[0] + " keeps waiting: the answer is text of 6,291,456 characters; the limit"
                            + " for one value is 5,242,880");
            assertThat(fixture.get("/v1/runs/" + run[0]).json().path("state").asText())
                    .isEqualTo("waiting");

            Answer right = answer(fixture, run, "\"Ann\"");
            assertThat(right.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(right.json().path("result").asText()).isEqualTo("Ann");
        }
    }

    @Test
    void a_number_or_text_json_cannot_hold_is_422_and_the_run_keeps_waiting() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String[] number = waitingRun(fixture, ASK_NUMBER);
            Answer infinite = answer(fixture, number, "1e400");
            assertThat(infinite.status()).isEqualTo(422);
            assertThat(infinite.json().path("message").asText())
                    .isEqualTo("run " + number[0] + " keeps waiting: the answer is the number 1E+400, which JSON"
                            + " cannot hold (a stored run could not keep it)");
            assertThat(fixture.get("/v1/runs/" + number[0]).json().path("state").asText())
                    .isEqualTo("waiting");
            assertThat(answer(fixture, number, "2.5").json().path("result").asDouble())
                    .isEqualTo(2.5);

            String[] name = waitingRun(fixture, ASK_NAME);
            Answer surrogate = answer(fixture, name, "\"a\\ud800b\"");
            assertThat(surrogate.status()).isEqualTo(422);
            assertThat(surrogate.json().path("message").asText())
                    .isEqualTo("run " + name[0] + " keeps waiting: the answer is text with a lone surrogate \\uD800 at"
                            + " character 1, which JSON cannot hold (a stored run could not keep it)");
            assertThat(fixture.get("/v1/runs/" + name[0]).json().path("state").asText())
                    .isEqualTo("waiting");
            assertThat(answer(fixture, name, "\"a\\ud83d\\ude00b\"")
                            .json()
                            .path("result")
                            .asText())
                    .as("a surrogate pair is text like any other")
                    .isEqualTo("a\ud83d\ude00b");
        }
    }

    @Test
    void a_body_with_text_after_its_json_is_400_and_answers_nothing() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            String[] run = waitingRun(fixture, ASK_NAME);
            Answer trailing = fixture.post(
                    "/v1/runs/" + run[0] + "/input", "{\"call_id\": \"" + run[1] + "\", \"value\": \"Ann\"} {}");
            assertThat(trailing.status()).isEqualTo(400);
            assertThat(fixture.get("/v1/runs/" + run[0]).json().path("state").asText())
                    .isEqualTo("waiting");
        }
    }
}
