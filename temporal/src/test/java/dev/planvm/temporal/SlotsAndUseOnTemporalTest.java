package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two extensions on Temporal: a {@code "slots": true} calling's lists are fitted to the tool's typed schema by the
 * worker that calls it, and a plan that ends in {@code use} says so in the workflow's response and trace.
 */
class SlotsAndUseOnTemporalTest {

    private static final List<JsonNode> RECEIVED = new CopyOnWriteArrayList<>();
    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() throws Exception {
        JsonNode schema = new ObjectMapper()
                .readTree("{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}");
        queue = TestTemporal.queue("slots-use");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tools(List.of(Tool.of("weather", "the weather of a city", schema, (params, context) -> {
                    RECEIVED.add(params);
                    return params.get("city");
                })))
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @Test
    void the_worker_fits_a_slot_of_one_value_to_a_typed_param() {
        PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("slots.json", """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "weather",
                  "tool_params": {"city": ["Oslo"]}, "output_vars": "final_answer", "slots": true}}]""", Map.of()));
        assertThat(response.status()).isEqualTo("succeeded");
        assertThat(response.finalAnswer().asText()).isEqualTo("Oslo");
        assertThat(RECEIVED).extracting(params -> params.toString()).contains("{\"city\":\"Oslo\"}");
        assertThat(response.use()).isFalse();
    }

    @Test
    void a_plan_ending_in_use_says_so_in_the_response_and_the_trace() {
        PlanResponse response = TestTemporal.plans(queue).run(PlanRequest.live("use.json", """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": [1, 2], "use": true}}]""", Map.of()));
        assertThat(response.status()).isEqualTo("succeeded");
        assertThat(response.use()).isTrue();
        assertThat(response.trace().path("use").asBoolean()).isTrue();
    }
}
