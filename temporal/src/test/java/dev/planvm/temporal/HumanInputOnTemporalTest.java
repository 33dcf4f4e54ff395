package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.WaitingInput;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.FailureKind;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * human_input on Temporal: the workflow waits for its {@code answer} update; a wrong answer is refused with the
 * reason and the workflow keeps waiting; the right one becomes the call's output and the run goes on.
 */
class HumanInputOnTemporalTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "human_input",
               "tool_params": {"prompt": "How many copies?", "schema": {"type": "integer", "minimum": 1}},
               "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "echo",
               "tool_params": {"copies": "${n}"}, "output_vars": "e"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${e.copies}"}}]""";

    @Test
    @Timeout(120)
    @SuppressWarnings("try") // the workers run while the plan does
    void a_wrong_answer_is_refused_and_the_right_one_continues_the_run() throws InterruptedException {
        TestWorkflowEnvironment env = TestTemporal.environment();
        String queue = TestTemporal.queue("input");
        try (PlanWorkers workers = PlanWorkers.builder(env.getWorkflowClient())
                .taskQueue(queue)
                .tool(Tool.of("echo", "returns its params", (params, context) -> params))
                .build()
                .start()) {
            TemporalPlans plans = TestTemporal.plans(queue);
            String id = plans.start(PlanRequest.live("ask.json", PLAN, Map.of()), null);
            List<WaitingInput> waiting = waitForInput(plans, id);
            assertThat(waiting).singleElement().satisfies(input -> {
                assertThat(input.seqNo()).isZero();
                assertThat(input.params().path("prompt").asText()).isEqualTo("How many copies?");
            });
            ObjectNode shown = plans.show(id);
            assertThat(shown.path("status").asText()).isEqualTo("waiting");
            assertThat(shown.path("waiting_for").path(0).path("seq_no").asInt()).isZero();

            assertThatThrownBy(() -> plans.answer(id, null, TextNode.valueOf("many")))
                    .isInstanceOfSatisfying(
                            TemporalException.class,
                            refused -> assertThat(refused.kind()).isEqualTo(FailureKind.REJECTED_BEFORE_RUNNING))
                    .hasMessageContaining("keeps waiting")
                    .hasMessageContaining("seq_no 0");
            assertThatThrownBy(() -> plans.answer(id, 1, IntNode.valueOf(3)))
                    .isInstanceOfSatisfying(
                            TemporalException.class,
                            refused -> assertThat(refused.kind()).isEqualTo(FailureKind.CONFLICT))
                    .hasMessageContaining("no human_input at seq_no 1");
            assertThat(plans.waitingInputs(id)).hasSize(1);

            assertThat(plans.answer(id, 0, IntNode.valueOf(3))).isZero();
            PlanResponse response = plans.result(id);
            assertThat(response.status()).isEqualTo("succeeded");
            assertThat(response.finalAnswer().intValue()).isEqualTo(3);
            assertThat(plans.waitingInputs(id)).isEmpty();
        }
    }

    /** The inputs the workflow waits for, once it waits for one (a worker has to reach the step first). */
    private static List<WaitingInput> waitForInput(TemporalPlans plans, String id) throws InterruptedException {
        List<WaitingInput> waiting = plans.waitingInputs(id);
        while (waiting.isEmpty()) {
            Thread.sleep(20);
            waiting = plans.waitingInputs(id);
        }
        return waiting;
    }
}
