package dev.planvm.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.server.http.ServerSettings;
import dev.planvm.server.testing.ServerFixture;
import dev.planvm.server.testing.ServerFixture.Answer;
import dev.planvm.server.testing.SseClient;
import dev.planvm.server.testing.SseClient.Event;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan tool's child run over HTTP (issue 23): the run JSON names the lineage, the parent's events announce the child. */
class ChildRunsApiTest {

    private static final String WRAP = """
            {"name": "wrap", "inputs": {"type": "object", "properties": {"v": {"type": "string"}}, "required": ["v"]},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"v": "${v}"}, "output_vars": ["e"]}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "[${e.v}]"}}]}""";

    private static final String PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "wrap", "tool_params": {"v": "x"}, "output_vars": ["w"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${w}"}}]""";

    @TempDir
    Path dir;

    @Test
    void the_run_json_names_parent_and_children_and_the_parents_events_announce_the_child() throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.planTool(
                        new PlanLoader().load(WRAP, "wrap.json").planOrThrow()))) {
            JsonNode done = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(PARENT, ""))
                    .json();
            assertThat(done.path("result").asText()).as(done.toString()).isEqualTo("[x]");
            String parentId = done.path("id").asText();

            JsonNode parent = fixture.get("/v1/runs/" + parentId).json();
            assertThat(parent.path("parent_run_id").isNull()).isTrue();
            assertThat(parent.path("children")).hasSize(1);
            JsonNode child = parent.path("children").get(0);
            assertThat(child.path("seq_no").asInt()).isZero();
            assertThat(child.path("state").asText()).isEqualTo("succeeded");
            assertThat(child.path("plan").asText()).isEqualTo("wrap.json");
            String childId = child.path("id").asText();

            JsonNode shown = fixture.get("/v1/runs/" + childId).json();
            assertThat(shown.path("parent_run_id").asText()).isEqualTo(parentId);
            assertThat(shown.path("parent_seq_no").asInt()).isZero();
            assertThat(shown.path("children")).isEmpty();
            assertThat(shown.path("result").asText()).isEqualTo("[x]");

            List<Event> events =
                    SseClient.read(fixture.client, fixture.request("/v1/runs/" + parentId + "/events"), null, 10_000);
            assertThat(events)
                    .filteredOn(e -> e.type().startsWith("child_"))
                    .extracting(e -> e.type() + " " + e.data().path("tool").asText() + " "
                            + e.data().path("child_run").asText() + " "
                            + e.data().path("status").asText(""))
                    .containsExactly(
                            "child_started wrap " + childId + " ", "child_finished wrap " + childId + " succeeded");
        }
    }

    private static final String ASK = """
            {"name": "ask", "inputs": {"type": "object"},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input",
                  "tool_params": {"prompt": "Which colour?", "choices": ["red", "blue"]}, "output_vars": ["c"]}},
               {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"v": "${c}"}, "output_vars": ["e"]}},
               {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "[${e.v}]"}}]}""";

    private static final String ASKING_PARENT = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "ask", "tool_params": {}, "output_vars": ["w"]}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${w}"}}]""";

    @Test
    void input_asked_in_a_child_is_the_parents_pending_input_and_answering_the_parent_continues_both()
            throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder ->
                        builder.planTool(new PlanLoader().load(ASK, "ask.json").planOrThrow()))) {
            JsonNode waiting = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(ASKING_PARENT, ""))
                    .json();
            assertThat(waiting.path("state").asText()).as(waiting.toString()).isEqualTo("waiting");
            String parentId = waiting.path("id").asText();
            String childId = fixture.get("/v1/runs/" + parentId)
                    .json()
                    .at("/children/0/id")
                    .asText();
            assertThat(waiting.path("error").asText()).contains("child run " + childId);
            JsonNode pending = fixture.get("/v1/runs/" + parentId).json().path("pending");
            assertThat(pending.path("kind").asText()).isEqualTo("input");
            assertThat(pending.path("child_run").asText()).isEqualTo(childId);
            assertThat(waiting.at("/pending/call_id").asText())
                    .isEqualTo(pending.path("call_id").asText());
            assertThat(fixture.get("/v1/runs").json().path("runs"))
                    .filteredOn(run -> run.path("id").asText().equals(parentId))
                    .singleElement()
                    .satisfies(
                            run -> assertThat(run.path("waiting_for").asText()).isEqualTo("input"));

            String callId = pending.path("call_id").asText();
            Answer wrong = fixture.post(
                    "/v1/runs/" + parentId + "/input?wait=true",
                    "{\"call_id\": \"" + callId + "\", \"value\": \"green\"}");
            assertThat(wrong.status()).isEqualTo(422);
            Answer right = fixture.post(
                    "/v1/runs/" + parentId + "/input?wait=true",
                    "{\"call_id\": \"" + callId + "\", \"value\": \"blue\"}");
            assertThat(right.status()).as(right.response().body()).isEqualTo(200);
            assertThat(right.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(right.json().path("result").asText()).isEqualTo("[blue]");
            assertThat(fixture.get("/v1/runs/" + childId).json().path("state").asText())
                    .isEqualTo("succeeded");
        }
    }

    @Test
    void an_approval_asked_in_a_child_is_given_through_the_parent() throws Exception {
        try (ServerFixture fixture = new ServerFixture(
                dir.resolve("runs.db"),
                ServiceSettings.DEFAULT,
                ServerSettings.DEFAULT,
                builder -> builder.planTool(
                        new PlanLoader().load(WRAP, "wrap.json").planOrThrow()))) {
            JsonNode waiting = fixture.post(
                            "/v1/runs?wait=true", ServerFixture.runBody(PARENT, "\"approve_tools\": [\"echo\"]"))
                    .json();
            assertThat(waiting.path("state").asText()).as(waiting.toString()).isEqualTo("waiting");
            String parentId = waiting.path("id").asText();
            JsonNode pending = fixture.get("/v1/runs/" + parentId).json().path("pending");
            assertThat(pending.path("kind").asText()).isEqualTo("approval");
            assertThat(pending.path("tool").asText()).isEqualTo("echo");
            assertThat(pending.path("child_run").asText()).isNotEmpty();

            Answer approved = fixture.post(
                    "/v1/runs/" + parentId + "/approve?wait=true",
                    "{\"call_id\": \"" + pending.path("call_id").asText() + "\", \"approved\": true}");
            assertThat(approved.status()).as(approved.response().body()).isEqualTo(200);
            assertThat(approved.json().path("state").asText()).isEqualTo("succeeded");
            assertThat(approved.json().path("result").asText()).isEqualTo("[x]");
        }
    }

    @Test
    void a_for_each_step_of_a_stored_run_has_a_row_per_element_as_planvm_show_gives_it() throws Exception {
        String map = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "for_each": ["a", "b", "c"],
                   "as": "v", "tool_params": {"v": "${v}"}, "output_vars": ["echoes"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${len(echoes)}"}}]""";
        try (ServerFixture fixture =
                new ServerFixture(dir.resolve("runs.db"), ServiceSettings.DEFAULT, ServerSettings.DEFAULT)) {
            JsonNode done = fixture.post("/v1/runs?wait=true", ServerFixture.runBody(map, ""))
                    .json();
            assertThat(done.path("result").asInt()).as(done.toString()).isEqualTo(3);

            JsonNode run = fixture.get("/v1/runs/" + done.path("id").asText()).json();
            JsonNode elements = run.at("/steps/0/elements");
            assertThat(elements).as(run.toString()).hasSize(3);
            for (int i = 0; i < 3; i++) {
                assertThat(elements.get(i).path("index").asInt()).isEqualTo(i);
                assertThat(elements.get(i).path("tool").asText()).isEqualTo("echo");
                assertThat(elements.get(i).path("state").asText()).isIn("committed", "answered");
            }
            assertThat(run.at("/steps/1").has("elements"))
                    .as("a step that maps nothing has no rows")
                    .isFalse();

            JsonNode first = fixture.get("/v1/runs/" + done.path("id").asText() + "?max_elements=1")
                    .json()
                    .at("/steps/0");
            assertThat(first.path("elements")).as(first.toString()).hasSize(1);
            assertThat(first.path("elements_more").asInt()).isEqualTo(2);
            Answer refused = fixture.get("/v1/runs/" + done.path("id").asText() + "?max_elements=1001");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.response().body()).contains("max_elements must be a whole number from 0 to 1000");
        }
    }
}
