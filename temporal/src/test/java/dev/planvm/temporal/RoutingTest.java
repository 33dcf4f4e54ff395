package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Calls of a tool can go to a task queue of its own, served by workers that hold only that tool
 * and its credentials: the workflow worker never holds them, and learns the tool from the queue's
 * workers.
 */
class RoutingTest {

    private static final String KEY = "vault-key-5e6f7a8b9c";

    @Test
    @SuppressWarnings("try") // the workers run while the plan does
    void a_routed_tool_runs_on_the_worker_of_its_queue_with_the_secret_only_that_worker_holds() {
        TestWorkflowEnvironment env = TestTemporal.environment();
        String main = TestTemporal.queue("main");
        String vault = TestTemporal.queue("vault");
        List<String> where = new CopyOnWriteArrayList<>();
        WorkflowClient vaultClient = WorkflowClient.newInstance(
                env.getWorkflowServiceStubs(),
                WorkflowClientOptions.newBuilder()
                        .setNamespace(env.getNamespace())
                        .setDataConverter(RedactingDataConverter.of(Map.of("key", KEY)))
                        .build());
        try (PlanWorkers general = PlanWorkers.builder(env.getWorkflowClient())
                        .taskQueue(main)
                        .route("balance", vault)
                        .tool(Tool.of("greet", "greets", (params, context) -> {
                            where.add("greet on " + main);
                            return TextNode.valueOf("hello " + params.get("who").asText());
                        }))
                        .build()
                        .start();
                PlanWorkers credentials = PlanWorkers.builder(vaultClient)
                        .taskQueue(vault)
                        .workflows(false)
                        .secrets(Map.of("key", KEY))
                        .tool(Tool.of("balance", "reads a balance", (params, context) -> {
                            where.add("balance on " + vault
                                    + (params.get("auth").asText().equals(KEY) ? " with the key" : ""));
                            return TextNode.valueOf("42 EUR");
                        }))
                        .build()
                        .start()) {
            assertThat(general.toolNames()).containsExactly("greet");
            PlanResponse response = TestTemporal.plans(main)
                    .run(PlanRequest.builder("p.json", """
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "greet", "tool_params": {"who": "Ann"}, "output_vars": "g"}},
                     {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "balance", "tool_params": {"auth": "${key}"}, "output_vars": "b"}},
                     {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${g}: ${b}"}}]""", Map.of())
                            .secrets(List.of("key"))
                            .build());

            assertThat(response.finalAnswer().asText()).isEqualTo("hello Ann: 42 EUR");
            assertThat(where).containsExactlyInAnyOrder("greet on " + main, "balance on " + vault + " with the key");
        }
    }
}
