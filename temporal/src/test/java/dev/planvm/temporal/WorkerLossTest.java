package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A worker that dies in the middle of a plan: another worker finishes it. The workflow is replayed
 * from its history, so no call it committed is made again; the call that was in flight is retried
 * (at-least-once, like a resumed local run) once its heartbeat times out, and the trace says so.
 *
 * <p>The workers run without sticky execution: a real server hands a dead worker's sticky task to
 * any worker after 5 s, the in-process test server never does.
 */
@Tag("slow") // crash: a worker lost mid-run (mvn -Pslow)
class WorkerLossTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "0"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${a}"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${b}"}, "output_vars": "c"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "step", "tool_params": {"n": "${c}"}, "output_vars": "final_answer"}}]""";

    private final Map<Integer, AtomicInteger> invocations = new ConcurrentHashMap<>();
    private final CountDownLatch hung = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Test
    void a_new_worker_finishes_the_plan_of_a_dead_one_without_repeating_a_committed_call() throws Exception {
        String queue = TestTemporal.queue("worker-loss");
        TemporalPlans plans = TestTemporal.plans(queue);
        PlanWorkers first = workers(queue).start();
        PlanWorkers second = null;
        try {
            String id = plans.start(PlanRequest.live("chain.json", PLAN, Map.of()), null);
            assertThat(hung.await(60, TimeUnit.SECONDS))
                    .as("the third call started")
                    .isTrue();

            ObjectNode running = plans.show(id);
            assertThat(running.get("status").asText()).isEqualTo("running");
            assertThat(running.get("steps").findValues("seq_no").stream()
                            .map(JsonNode::asInt)
                            .toList())
                    .containsExactly(0, 1);

            first.kill();
            second = workers(queue).start();
            PlanResponse response = plans.result(id);

            assertThat(response.status()).isEqualTo("succeeded");
            assertThat(response.finalAnswer().asText()).isEqualTo("step(step(step(step(0))))");
            assertThat(invocations.get(0)).as("committed before the loss").hasValue(1);
            assertThat(invocations.get(1)).as("committed before the loss").hasValue(1);
            assertThat(invocations.get(2))
                    .as("in flight at the loss: made again")
                    .hasValue(2);
            assertThat(invocations.get(3)).hasValue(1);
            JsonNode attempts = response.trace().at("/steps/2/inputs/attempts");
            assertThat(attempts).hasSize(1);
            assertThat(attempts.get(0).get("error").asText()).contains("its worker was lost");
            assertThat(plans.show(id).get("steps")).hasSize(4);
        } finally {
            release.countDown();
            if (second != null) {
                second.close();
            }
        }
    }

    private PlanWorkers workers(String queue) {
        Tool step = Tool.of("step", "wraps n; its first call at seq_no 2 never answers", (params, context) -> {
            int call = invocations
                    .computeIfAbsent(context.seqNo(), s -> new AtomicInteger())
                    .incrementAndGet();
            if (context.seqNo() == 2 && call == 1) {
                hung.countDown();
                awaitIgnoringInterrupts(); // the process is gone: nothing it does reaches the server
            }
            return TextNode.valueOf("step(" + params.get("n").asText() + ")");
        });
        return PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tool(step)
                .heartbeatTimeout(Duration.ofSeconds(3))
                .stickyQueueTimeout(Duration.ZERO)
                .build();
    }

    private void awaitIgnoringInterrupts() {
        while (true) {
            try {
                release.await();
                return;
            } catch (InterruptedException ignored) {
                // a dead process does not stop early
            }
        }
    }
}
