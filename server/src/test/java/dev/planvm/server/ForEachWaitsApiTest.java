package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code for_each} whose elements wait for a person, over HTTP: each element is a call of its own — the answer
 * that says the run waits, {@code GET /v1/runs/{id}} ({@code pending}, {@code pending_calls}) and the run browser's
 * report name the same element; an approval or an answer decides one element and the run waits again for the next;
 * {@code call_ids} approves several, listed. A real server on loopback, a real HTTP client.
 */
class ForEachWaitsApiTest {

    static final String MAIL = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "for_each": ["alice@x", "bob@x", "mallory@x"], "as": "who", "tool_params": {"to": "${who}"}, "output_vars": "final_answer"}}]""";

    static final String ASK = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input", "for_each": ["a", "b", "c"], "as": "item", "tool_params": {"prompt": "Delete customer ${item}?", "choices": ["yes", "no"]}, "output_vars": "final_answer"}}]""";

    @TempDir
    Path dir;

    @Test
    void each_element_needing_approval_is_named_alike_everywhere_and_approved_on_its_own() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            Answer waiting =
                    fixture.post("/v1/runs?wait=true", ServerFixture.runBody(MAIL, "\"approve_tools\": [\"send_*\"]"));
            assertThat(waiting.json().path("state").asText()).isEqualTo("waiting");
            String id = waiting.json().path("id").asText();
            JsonNode said = waiting.json().path("pending");
            assertThat(said.path("element").asInt()).isZero();
            assertThat(said.at("/params/to").asText()).isEqualTo("alice@x");
            assertThat(waiting.json().path("error").asText())
                    .isEqualTo("seq_no 0 (calling): for_each element 0: waiting for approval to call tool 'send_mail'"
                            + " with {\"to\":\"alice@x\"}");

            JsonNode run = fixture.get("/v1/runs/" + id).json();
            assertThat(run.path("pending"))
                    .as("GET names the element the answer named")
                    .isEqualTo(said);
            assertThat(run.path("pending_calls").findValuesAsText("to"))
                    .containsExactly("alice@x", "bob@x", "mallory@x");
            assertThat(run.path("pending_calls").get(0)).isEqualTo(said);
            assertThat(fixture.get("/v1/runs/" + id + "/report").json().at("/run/pending"))
                    .as("the run browser names it too")
                    .isEqualTo(said);
            List<String> ids = new ArrayList<>(run.path("pending_calls").findValuesAsText("call_id"));
            assertThat(ids).doesNotHaveDuplicates();

            Answer first = fixture.post(
                    "/v1/runs/" + id + "/approve?wait=true",
                    "{\"call_id\": \"" + said.path("call_id").asText() + "\", \"approved\": true}");
            assertThat(first.status()).isEqualTo(200);
            assertThat(fixture.mails).as("one approval, one mail").hasValue(1);
            assertThat(first.json().path("state").asText())
                    .as("the run waits again")
                    .isEqualTo("waiting");
            assertThat(first.json().at("/pending/element").asInt()).isEqualTo(1);
            assertThat(first.json().at("/pending/call_id").asText()).isEqualTo(ids.get(1));

            assertThat(fixture.post(
                                    "/v1/runs/" + id + "/approve",
                                    "{\"call_id\": \"" + ids.get(1) + "\", \"call_ids\": [\"" + ids.get(2) + "\"]}")
                            .status())
                    .as("one call, or a list: not both")
                    .isEqualTo(400);
            assertThat(fixture.post(
                                    "/v1/runs/" + id + "/approve",
                                    "{\"call_ids\": [\"" + ids.get(1) + "\", \"" + ids.get(0) + "\"]}")
                            .status())
                    .as("a call it no longer waits for: nothing is approved")
                    .isEqualTo(409);
            assertThat(fixture.mails).hasValue(1);

            Answer rest = fixture.post(
                    "/v1/runs/" + id + "/approve?wait=true",
                    "{\"call_ids\": [\"" + ids.get(1) + "\", \"" + ids.get(2) + "\"], \"reason\": \"both fine\"}");
            assertThat(rest.status()).isEqualTo(200);
            assertThat(rest.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(fixture.mails).hasValue(3);
            JsonNode done = fixture.get("/v1/runs/" + id).json();
            assertThat(done.path("pending_calls").isNull()).isTrue();
            assertThat(done.path("approvals").findValuesAsText("decision"))
                    .containsExactly("approved", "approved", "approved");
            assertThat(done.path("approvals").findValues("element"))
                    .extracting(JsonNode::asInt)
                    .containsExactly(0, 1, 2);
        }
    }

    @Test
    void each_element_of_a_human_input_map_is_answered_on_its_own() throws Exception {
        try (ServerFixture fixture = ServerFixture.start(dir)) {
            Answer waiting = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(ASK, ""));
            String id = waiting.json().path("id").asText();
            assertThat(waiting.json().at("/pending/params/prompt").asText()).isEqualTo("Delete customer a?");
            JsonNode run = fixture.get("/v1/runs/" + id).json();
            assertThat(run.path("pending_calls").findValuesAsText("prompt"))
                    .containsExactly("Delete customer a?", "Delete customer b?", "Delete customer c?");
            assertThat(run.path("pending_calls").findValuesAsText("call_id"))
                    .containsExactly("step-1-element-0", "step-1-element-1", "step-1-element-2");

            Answer third = fixture.post(
                    "/v1/runs/" + id + "/input?wait=true", "{\"call_id\": \"step-1-element-2\", \"value\": \"no\"}");
            assertThat(third.json().path("state").asText()).isEqualTo("waiting");
            assertThat(third.json().at("/pending/call_id").asText()).isEqualTo("step-1-element-0");
            assertThat(fixture.post(
                                    "/v1/runs/" + id + "/input",
                                    "{\"call_id\": \"step-1-element-2\", \"value\": \"yes\"}")
                            .status())
                    .as("an answered question takes no second answer")
                    .isEqualTo(409);
            fixture.post(
                    "/v1/runs/" + id + "/input?wait=true", "{\"call_id\": \"step-1-element-0\", \"value\": \"yes\"}");
            Answer done = fixture.post(
                    "/v1/runs/" + id + "/input?wait=true", "{\"call_id\": \"step-1-element-1\", \"value\": \"yes\"}");
            assertThat(done.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(done.json().path("result").toString()).isEqualTo("[\"yes\",\"yes\",\"no\"]");
        }
    }
}
