package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.agent.format.StrictPlanSchema;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlannerTest {

    private final AgentFixture fixture = new AgentFixture();
    private final PlanVm vm = fixture.vm(fixture.search("vector_search", 0)).build();

    @AfterEach
    void close() {
        fixture.close();
    }

    private static final String VALID = """
            {"plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
              {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${docs}"}}]}""";

    private static final String TYPO =
            VALID.replace("\"tool_name\": \"vector_search\"", "\"tool_name\": \"vector_serch\"");

    private static final String BAD_JUMP = """
            {"plan": [
              {"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 7}},
              {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "x"}}]}""";

    private Planned plan(Planner planner) {
        return planner.plan("What is TiDB?", Set.of(), vm.session(RunMode.live()), new Planner.Listener() {});
    }

    @Test
    void a_valid_plan_first_time_takes_one_round_and_the_prompt_is_built_from_planvms_sources() {
        fixture.server.reply(VALID);

        Planned planned = plan(new Planner(vm, 2, AnswerFormat.JSON, false));

        assertThat(planned.rounds()).hasSize(1);
        assertThat(planned.plan().instructions()).hasSize(2);
        JsonNode request = fixture.server.requests().get(0);
        assertThat(request.at("/response_format/type").asText()).isEqualTo("json_object");
        String system = request.at("/messages/0/content").asText();
        assertThat(system)
                .contains(
                        "P9 calling.",
                        "- len(x):",
                        "[1 argument]",
                        "- vector_search: Test tool vector_search.",
                        "params schema: {\"type\":\"object\"",
                        "\"$id\":\"https://planvm.dev/schema/plan.schema.json\"");
        assertThat(system).doesNotContain("planvm:planner");
        assertThat(request.at("/messages/1/content").asText()).isEqualTo("Goal: What is TiDB?");
    }

    @Test
    void an_invalid_plan_is_repaired_in_one_round_with_the_located_problems_sent_back() {
        fixture.server.reply(TYPO).reply(VALID);

        Planned planned = plan(new Planner(vm, 2, AnswerFormat.JSON, false));

        assertThat(planned.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "repair");
        assertThat(planned.repairs()).isEqualTo(1);
        assertThat(fixture.lastUserMessage(1))
                .contains("plan: seq_no 0 at /plan/0/parameters/tool_name: tool 'vector_serch' "
                        + "is not available; did you mean 'vector_search'?");
        assertThat(fixture.server.requests().get(1).at("/messages/2/role").asText())
                .isEqualTo("assistant");
    }

    @Test
    void an_invalid_plan_is_repaired_in_two_rounds() {
        fixture.server.reply(TYPO).reply(BAD_JUMP).reply(VALID);

        Planned planned = plan(new Planner(vm, 2, AnswerFormat.JSON, false));

        assertThat(planned.rounds()).extracting(PlanRound::valid).containsExactly(false, false, true);
        assertThat(fixture.lastUserMessage(2))
                .contains("seq_no 0 at /plan/0/parameters/target_seq: jump target 7 is not a seq_no");
    }

    @Test
    void a_plan_that_stays_invalid_fails_listing_the_last_problems() {
        fixture.server.reply(TYPO).reply(TYPO).reply(BAD_JUMP);

        assertThatThrownBy(() -> plan(new Planner(vm, 2, AnswerFormat.JSON, false)))
                .isInstanceOfSatisfying(PlanningException.class, e -> {
                    assertThat(e.rounds()).hasSize(3);
                    assertThat(e.problems()).hasSize(1);
                    assertThat(e.getMessage())
                            .isEqualTo("no valid plan after 3 answers (2 repairs); the last answer's problems:\n"
                                    + "  plan: seq_no 0 at /plan/0/parameters/target_seq: "
                                    + e.problems().get(0).message());
                });
        assertThat(fixture.server.requestCount()).isEqualTo(3);
    }

    @Test
    void a_strict_answer_is_asked_for_with_the_derived_schema_and_decoded() {
        fixture.server.reply(StrictPlanSchema.encode(AgentFixture.json(VALID)).toString());

        Planned planned = plan(new Planner(vm, 0, null, false));

        assertThat(planned.rounds().get(0).format()).isEqualTo(AnswerFormat.STRICT);
        JsonNode format = fixture.server.requests().get(0).path("response_format");
        assertThat(format.path("type").asText()).isEqualTo("json_schema");
        assertThat(format.at("/json_schema/strict").asBoolean()).isTrue();
        assertThat(format.at("/json_schema/schema")).isEqualTo(StrictPlanSchema.schema());
        assertThat(planned.plan().document()).isEqualTo(AgentFixture.json(VALID));
    }

    @Test
    void a_server_that_refuses_a_strict_schema_is_asked_in_json_mode_from_then_on() {
        fixture.server
                .replyStatus(400, "{\"error\": {\"message\": \"response_format json_schema is not supported\"}}")
                .reply(TYPO)
                .reply(VALID);

        Planned planned = plan(new Planner(vm, 2, null, false));

        assertThat(planned.rounds()).extracting(PlanRound::format).containsOnly(AnswerFormat.JSON);
        assertThat(fixture.server.requests())
                .extracting(r -> r.at("/response_format/type").asText())
                .containsExactly("json_schema", "json_object", "json_object");
    }

    @Test
    void a_planner_request_that_fails_is_a_planning_failure_naming_the_cause() {
        fixture.server.replyStatus(401, "{\"error\": {\"message\": \"bad key\"}}");

        assertThatThrownBy(() -> plan(new Planner(vm, 2, AnswerFormat.JSON, false)))
                .isInstanceOf(PlanningException.class)
                .hasMessage(
                        "the planner's request failed: the LLM server answered HTTP 401: bad key (check OPENAI_API_KEY)");
    }
}
