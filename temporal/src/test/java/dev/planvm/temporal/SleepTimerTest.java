package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The built-in sleep on Temporal is a workflow timer: an hour's sleep passes in the test server's skipped
 * time (a sleep that blocked the workflow thread would never end, and Temporal would report a deadlock).
 */
class SleepTimerTest {

    @Test
    @SuppressWarnings("try") // the workers run while the plan does
    void a_sleep_in_a_plan_is_a_workflow_timer() {
        TestWorkflowEnvironment env = TestTemporal.environment();
        String queue = TestTemporal.queue("sleep");
        try (PlanWorkers workers = PlanWorkers.builder(env.getWorkflowClient())
                .taskQueue(queue)
                .tool(Tool.of("noop", "does nothing", (params, context) -> params))
                .build()
                .start()) {
            PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("nap.json", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "sleep", "tool_params": {"seconds": 3600}, "output_vars": "s"}},
                     {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${s.slept_seconds}"}}]""", Map.of()));
            assertThat(response.finalAnswer().decimalValue()).isEqualByComparingTo("3600");
        }
    }
}
