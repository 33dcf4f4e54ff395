package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.Tool;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A plan that cannot run with the workers at hand is refused as a local run refuses it (invalid,
 * rejected: one located sentence per problem, nothing called), and {@code show} prints a finished
 * workflow like a stored run.
 */
class RefusalsAndShowTest {

    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("refusals");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tools(List.of(Tool.of(
                        "upper",
                        "upper-cases params.text",
                        (params, context) ->
                                TextNode.valueOf(params.get("text").asText().toUpperCase()))))
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @Test
    void an_invalid_plan_is_refused_with_every_located_error() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "asign", "parameters": {"x": 1}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"target_seq": 7}}]""", RunSettings.defaults());

        assertThat(response.status()).isEqualTo("invalid");
        assertThat(response.problems())
                .containsExactly(
                        "seq_no 0 at /0/type: unknown instruction type 'asign': did you mean 'assign'?",
                        "seq_no 1 at /1/parameters/target_seq: jump target 7 is not a seq_no of this plan (they run from 0 to 1)");
    }

    @Test
    void a_plan_calling_a_tool_no_worker_holds_is_rejected_naming_it() {
        PlanResponse response = run("""
                [{"seq_no": 3, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {},
                  "output_vars": "final_answer"}}]""", RunSettings.defaults());

        assertThat(response.status()).isEqualTo("rejected");
        assertThat(response.problems())
                .singleElement()
                .asString()
                .startsWith("seq_no 3: tool 'vector_search' is not installed");
    }

    @Test
    void a_plan_using_an_llm_condition_without_an_llm_on_the_queue_is_rejected_saying_what_to_set() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "Is it done?", "jump_if_true": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": 1}}]""", RunSettings.defaults());

        assertThat(response.status()).isEqualTo("rejected");
        assertThat(response.problems()).singleElement().asString().contains("OPENAI_API_KEY or OPENAI_BASE_URL");
    }

    @Test
    void a_tool_the_run_denies_is_refused_before_any_activity() {
        PlanResponse response = run(
                """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "a"},
                  "output_vars": "final_answer"}}]""", RunSettings.builder().toolPolicy(List.of(), List.of("up*")).build());

        assertThat(response.status()).isEqualTo("rejected");
        assertThat(response.problems())
                .containsExactly("seq_no 0: tool 'upper' is denied by the tool policy (deny rule 'up*')");
    }

    @Test
    void show_prints_a_finished_workflow_like_a_stored_run() {
        TemporalPlans plans = TestTemporal.plans(queue);
        String id =
                plans.start(PlanRequest.live("hello.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "Hello, ${name}"},
                  "output_vars": "final_answer"}}]""", Map.of("name", TextNode.valueOf("Ann"))), "show-me");
        plans.result(id);

        ObjectNode shown = plans.show(id);
        assertThat(shown.get("workflow").asText()).isEqualTo("show-me");
        assertThat(shown.get("status").asText()).isEqualTo("succeeded");
        assertThat(shown.at("/plan/source").asText()).isEqualTo("hello.json");
        assertThat(shown.at("/inputs/name").asText()).isEqualTo("Ann");
        assertThat(shown.get("result").asText()).isEqualTo("HELLO, ANN");
        JsonNode step = shown.at("/steps/0");
        assertThat(step.get("seq_no").asInt()).isZero();
        assertThat(step.at("/writes/final_answer").asText()).isEqualTo("HELLO, ANN");
    }

    @Test
    void show_of_an_unknown_workflow_says_there_is_none() {
        assertThatThrownBy(() -> TestTemporal.plans(queue).show("no-such-workflow"))
                .isInstanceOf(TemporalException.class)
                .hasMessage("no workflow 'no-such-workflow' in this namespace");
    }

    private static PlanResponse run(String plan, RunSettings settings) {
        return TestTemporal.plans(queue)
                .run(PlanRequest.builder("p.json", plan, Map.of())
                        .settings(settings)
                        .build());
    }
}
