package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * A hostile or careless plan cannot push a payload or a history past Temporal's limits (which
 * would end the workflow with no result): each bound fails the step or leaves a part out with a
 * sentence. Small limits stand in for the defaults (1 MiB per payload, 40 MiB per history).
 */
class BoundsTest {

    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("bounds");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .maxPayloadBytes(4096)
                .maxHistoryBytes(10_000)
                .tools(List.of(Tool.of(
                        "big",
                        "answers text of params.n characters",
                        (params, context) ->
                                TextNode.valueOf("x".repeat(params.get("n").asInt())))))
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @Test
    void a_call_answering_more_than_a_payload_may_hold_fails_its_step() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "big", "tool_params": {"n": 5000},
                  "output_vars": "final_answer"}}]""");

        assertThat(response.status()).isEqualTo("failed");
        assertThat(response.error().describe())
                .isEqualTo("seq_no 0 (calling): tool 'big' failed: the output of tool 'big'"
                        + " is 5,002 bytes as JSON; an activity result may hold at most 4,096 (--max-payload-bytes)");
    }

    @Test
    void a_result_too_large_for_one_payload_leaves_its_trace_out_and_says_so() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "big", "tool_params": {"n": 1500},
                  "output_vars": "a"}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a}"}}]""");

        assertThat(response.status()).isEqualTo("succeeded");
        assertThat(response.finalAnswer().asText()).hasSize(1500);
        assertThat(response.trace().get("truncated").asText()).startsWith("trace of ");
        assertThat(response.warnings())
                .anyMatch(
                        w -> w.startsWith("the trace (")
                                && w.endsWith(
                                        "bytes as JSON) was left out of the workflow's result, which may hold at most 4,096 bytes (--max-payload-bytes)"));
    }

    @Test
    void a_run_that_kept_going_past_more_failed_steps_than_its_result_holds_keeps_the_first_and_says_so() {
        StringBuilder plan = new StringBuilder("[");
        for (int i = 0; i < 40; i++) {
            plan.append(i == 0 ? "" : ",")
                    .append("{\"seq_no\": ")
                    .append(i)
                    .append(", \"type\": \"assign\", \"parameters\": {\"v\": \"${no_such_variable_anywhere_")
                    .append(i)
                    .append("}\"}}");
        }
        plan.append(",{\"seq_no\": 40, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"done\"}}]");
        PlanResponse response = TestTemporal.plans(queue)
                .run(PlanRequest.builder("many-failures.json", plan.toString(), Map.of())
                        .settings(RunSettings.builder().keepGoing(true).build())
                        .build());

        assertThat(response.status()).isEqualTo("completed_with_failures");
        assertThat(response.finalAnswer().asText()).isEqualTo("done");
        assertThat(response.failedSteps()).isNotEmpty().hasSizeLessThan(40);
        assertThat(response.failedSteps().get(0).seqNo()).isZero();
        assertThat(response.warnings())
                .anyMatch(w -> w.startsWith((40 - response.failedSteps().size()) + " of the 40 failed steps were left"
                        + " out of the workflow's result"));
    }

    @Test
    void a_loop_whose_answers_would_overflow_the_history_fails_at_the_call_that_passes_the_limit() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "big", "tool_params": {"n": 3000}, "output_vars": "a"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"i": "${i + 1}"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < 100}", "jump_if_true": 1}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "done"}}]""");

        assertThat(response.status()).isEqualTo("failed");
        assertThat(response.error().describe())
                .isEqualTo("seq_no 1 (calling): tool 'big' failed: the answers of this run's"
                        + " calls add up to more than 10,000 bytes as JSON, the most one workflow's history may hold"
                        + " (--max-history-bytes); split the plan or have tools return less");
        assertThat(response.steps()).isEqualTo(1 + 3 * 3 + 1); // the fourth call fails
    }

    @Test
    void a_request_larger_than_a_workflow_input_may_hold_is_refused_before_it_starts() {
        String plan = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \""
                + "y".repeat(2_100_000) + "\"}}]";
        assertThatThrownBy(() -> TestTemporal.plans(queue).start(PlanRequest.live("huge.json", plan, Map.of()), null))
                .isInstanceOf(TemporalException.class)
                .hasMessageStartingWith("huge.json: the plan request (plan, inputs, cassette) is 2,1")
                .hasMessageEndingWith("bytes as JSON; a Temporal workflow input may hold at most 2,000,000");
    }

    @Test
    void an_endless_loop_stops_at_the_step_limit_as_locally() {
        PlanResponse response = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"x": 1}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"target_seq": 0}}]""");

        assertThat(response.error().describe())
                .isEqualTo("seq_no 0 (assign): the run exceeded the limit of 1000 steps"
                        + " (--max-steps); an unguarded jmp loop is the usual cause");
    }

    private static PlanResponse run(String plan) {
        return TestTemporal.plans(queue).run(PlanRequest.live("p.json", plan, Map.of()));
    }
}
