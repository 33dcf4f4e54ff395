package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Independent calls of a plan run as concurrent activities, through the same dataflow scheduling
 * as a local run, and still commit in program order; a side-effecting tool is never started ahead
 * of its turn; a sequential run makes one call at a time.
 */
class ConcurrentActivitiesTest {

    private static final AtomicInteger running = new AtomicInteger();
    private static final AtomicInteger maxRunning = new AtomicInteger();
    private static final List<String> order = Collections.synchronizedList(new ArrayList<>());
    private static String queue;
    private static PlanWorkers workers;

    /** Three independent searches, then a summary reading all three. */
    private static final String FAN_IN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "c"}, "output_vars": "c"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "${a}+${b}+${c}"}, "output_vars": "final_answer"}}]""";

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("concurrent");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tool(slow("search", 800, false))
                .tool(slow("send", 200, true))
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @BeforeEach
    void reset() {
        running.set(0);
        maxRunning.set(0);
        order.clear();
    }

    @Test
    void independent_calls_run_as_concurrent_activities_and_the_dependent_one_waits() {
        PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("fan-in.json", FAN_IN, Map.of()));

        assertThat(response.finalAnswer().asText()).isEqualTo("search(search(a)+search(b)+search(c))");
        assertThat(maxRunning).as("three searches at once").hasValue(3);
        assertThat(order.subList(0, 3))
                .as("the three searches started before any ended")
                .containsExactlyInAnyOrder("start 0", "start 1", "start 2");
        assertThat(order.indexOf("start 3"))
                .isGreaterThan(order.lastIndexOf("end 2"))
                .isGreaterThan(order.indexOf("end 0"));
        assertThat(response.trace().at("/early_calls/started").asInt()).isEqualTo(3);
        assertThat(response.trace().at("/early_calls/mismatched").asInt()).isZero();
        assertThat(response.trace().path("steps").findValues("seq_no").stream()
                        .map(JsonNode::asInt)
                        .toList())
                .as("steps commit in program order")
                .containsExactly(0, 1, 2, 3);
    }

    @Test
    void a_sequential_run_makes_one_call_at_a_time() {
        PlanResponse response = TestTemporal.plans(queue)
                .run(PlanRequest.builder("fan-in.json", FAN_IN, Map.of())
                        .settings(RunSettings.builder().concurrency(true, 1).build())
                        .build());

        assertThat(response.finalAnswer().asText()).isEqualTo("search(search(a)+search(b)+search(c))");
        assertThat(maxRunning).hasValue(1);
        assertThat(response.trace().has("early_calls")).isFalse();
    }

    @Test
    void a_side_effecting_call_is_never_started_ahead_and_later_calls_wait_for_it() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "a"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send", "tool_params": {"q": "x"}, "output_vars": "sent"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "search", "tool_params": {"q": "b"}, "output_vars": "b"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${a} ${sent} ${b}"}}]""";
        PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("effects.json", plan, Map.of()));

        assertThat(response.finalAnswer().asText()).isEqualTo("search(a) send(x) search(b)");
        assertThat(order).containsExactly("start 0", "end 0", "start 1", "end 1", "start 2", "end 2");
    }

    private static Tool slow(String name, long millis, boolean sideEffects) {
        return new Tool() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public boolean hasSideEffects() {
                return sideEffects;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                order.add("start " + context.seqNo());
                try {
                    Thread.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                order.add("end " + context.seqNo());
                running.decrementAndGet();
                return TextNode.valueOf(name + "(" + params.path("q").asText() + ")");
            }
        };
    }
}
