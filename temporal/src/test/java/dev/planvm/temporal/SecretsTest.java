package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.testing.TestWorkflowEnvironment;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Secrets never enter a workflow's history: the plan holds a reference, the worker that calls the
 * tool puts the value in, and what comes back (outputs, failure messages) is redacted on the
 * worker; the payload codec redacts anything that still holds one.
 */
class SecretsTest {

    private static final String SECRET = "tok-9f8e7d6c5b4a3921";
    private static final List<String> received = new CopyOnWriteArrayList<>();
    private static WorkflowClient holding;
    private static String queue;
    private static PlanWorkers workers;

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "auth",
              "tool_params": {"header": "Bearer ${token}"}, "output_vars": "final_answer"}}]""";

    @BeforeAll
    static void startWorkers() {
        TestWorkflowEnvironment env = TestTemporal.environment();
        holding = WorkflowClient.newInstance(
                env.getWorkflowServiceStubs(),
                WorkflowClientOptions.newBuilder()
                        .setNamespace(env.getNamespace())
                        .setDataConverter(RedactingDataConverter.of(Map.of("token", SECRET)))
                        .build());
        queue = TestTemporal.queue("secrets");
        workers = PlanWorkers.builder(holding)
                .taskQueue(queue)
                .secrets(Map.of("token", SECRET))
                .tools(tools())
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @Test
    void the_tool_gets_the_value_and_the_history_only_the_reference() {
        received.clear();
        TemporalPlans plans = TestTemporal.plans(queue);
        String id = plans.start(
                PlanRequest.builder("auth.json", PLAN, Map.of())
                        .secrets(List.of("token"))
                        .build(),
                null);
        PlanResponse response = plans.result(id);

        assertThat(received).containsExactly("Bearer " + SECRET);
        assertThat(response.finalAnswer().asText()).isEqualTo("echo: Bearer «secret:token»");
        assertThat(response.trace().at("/steps/0/inputs/params/header").asText())
                .isEqualTo("Bearer «secret:token»");
        assertNoSecretIn(Histories.everything(plans.client(), id));
    }

    @Test
    void a_failure_message_holding_the_secret_is_redacted_before_it_leaves_the_worker() {
        TemporalPlans plans = TestTemporal.plans(queue);
        String plan = PLAN.replace("\"auth\"", "\"leaky\"");
        String id = plans.start(
                PlanRequest.builder("leaky.json", plan, Map.of())
                        .secrets(List.of("token"))
                        .build(),
                null);
        PlanResponse response = plans.result(id);

        assertThat(response.error().message()).isEqualTo("tool 'leaky' failed: HTTP 401 for Bearer «secret:token»");
        assertNoSecretIn(Histories.everything(plans.client(), id));
    }

    @Test
    void an_input_holding_the_secret_is_redacted_by_the_codec() {
        TemporalPlans careless = new TemporalPlans(holding, queue);
        String plan = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"${pasted}\"}}]";
        String id = careless.start(
                PlanRequest.live(
                        "pasted.json",
                        plan,
                        Map.of("pasted", JsonNodeFactory.instance.textNode("key " + SECRET + " pasted by mistake"))),
                null);
        PlanResponse response = careless.result(id);

        assertThat(response.finalAnswer().asText()).isEqualTo("key «secret:token» pasted by mistake");
        assertNoSecretIn(Histories.everything(holding, id));
    }

    @Test
    @SuppressWarnings("try") // the worker runs while the plan does
    void a_worker_without_the_secret_fails_the_step_naming_it() {
        String otherQueue = TestTemporal.queue("no-secret");
        try (PlanWorkers without = PlanWorkers.builder(holding)
                .taskQueue(otherQueue)
                .tools(tools())
                .build()
                .start()) {
            PlanResponse response = TestTemporal.plans(otherQueue)
                    .run(PlanRequest.builder("auth.json", PLAN, Map.of())
                            .secrets(List.of("token"))
                            .build());

            assertThat(response.status()).isEqualTo("failed");
            assertThat(response.error().message())
                    .startsWith("tool 'auth' failed: the secret 'token' is not set on this"
                            + " worker: start it with --secret token");
        }
    }

    @Test
    void a_worker_holding_secrets_needs_a_client_that_redacts_them() {
        assertThatThrownBy(() -> PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                        .taskQueue("x")
                        .secrets(Map.of("token", SECRET))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holds the secret 'token' but its Temporal client does not redact it")
                .hasMessageNotContaining(SECRET);
    }

    private static void assertNoSecretIn(String history) {
        assertThat(history).contains("«secret:token»");
        assertThat(history)
                .doesNotContain(SECRET.substring(0, 8))
                .doesNotContain(SECRET.substring(SECRET.length() - 8));
    }

    private static List<Tool> tools() {
        return List.of(
                Tool.of("auth", "echoes its header", (params, context) -> {
                    received.add(params.get("header").asText());
                    return TextNode.valueOf("echo: " + params.get("header").asText());
                }),
                Tool.of("leaky", "fails quoting its header", (params, context) -> {
                    throw ToolException.permanent(
                            "HTTP 401 for " + params.get("header").asText());
                }));
    }
}
