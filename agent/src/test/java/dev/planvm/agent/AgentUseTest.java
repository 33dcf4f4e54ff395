package dev.planvm.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's {@code use}: a plan that ends in {@code use} hands its value back to the LLM that wrote it, and
 * {@code ask} plans again with that value (shown in the request, and set as {@code handed_back} in the next run).
 */
class AgentUseTest {

    private final AgentFixture fixture = new AgentFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    /** Searches, and hands the documents back rather than answering. */
    private static final String LOOK_FIRST = """
            {"plan": [
              {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "TiDB"}, "output_vars": ["docs"]}},
              {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${docs}", "use": true}}]}""";

    /** Answers from the value handed back. */
    private static final String ANSWER = """
            {"plan": [
              {"seq_no": 0, "type": "assign", "parameters": {"final_answer": "Answer from: ${handed_back}"}}]}""";

    @Test
    void a_plan_ending_in_use_is_planned_again_with_its_value() {
        fixture.server.reply(LOOK_FIRST).reply(ANSWER);
        PlanVm vm = fixture.vm(fixture.search("vector_search", 0)).build();

        AgentResult result =
                Agent.builder(vm).format(AnswerFormat.JSON).build().ask("About TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("Answer from: docs about TiDB");
        assertThat(result.runs()).hasSize(2);
        assertThat(result.runs().get(0).result().handsBack()).isTrue();
        assertThat(result.runs().get(1).result().handsBack()).isFalse();
        assertThat(result.rounds()).extracting(PlanRound::purpose).containsExactly("plan", "use");
        assertThat(fixture.lastUserMessage(1))
                .contains(
                        "It ended in use, so its final_answer comes back to you",
                        "docs about TiDB",
                        "handed_back holds the value above",
                        "(2 more times at most)");
        assertThat(result.trace().at("/runs/0/use").asBoolean()).isTrue();
        assertThat(result.trace().at("/runs/0/trace/use").asBoolean()).isTrue();
        assertThat(result.trace().at("/runs/1/use").isMissingNode()).isTrue();
        assertThat(result.trace().path("result").asText()).isEqualTo("Answer from: docs about TiDB");
        assertThat(fixture.server.requests().get(0).at("/messages/0/content").asText())
                .as("the planner is taught use")
                .contains("the variable use to true", "handed_back");
    }

    @Test
    void a_plan_that_still_hands_back_when_no_round_is_left_fails_the_agent_run() {
        fixture.server.reply(LOOK_FIRST).reply(LOOK_FIRST);
        PlanVm vm = fixture.vm(fixture.search("vector_search", 0)).build();

        AgentResult result = Agent.builder(vm)
                .format(AnswerFormat.JSON)
                .useRounds(1)
                .build()
                .ask("About TiDB", Map.of(), RunMode.live());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error())
                .isEqualTo("the plan still ends in use after 1 planning round after use; --use-rounds 1 allows no"
                        + " more");
        assertThat(result.runs()).hasSize(2);
        assertThat(fixture.lastUserMessage(1)).contains("no more values may be handed back");
    }
}
