package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * planvm's retry policy as Temporal activity retries: a failure that can pass is retried after
 * planvm's wait or the server's {@code Retry-After} (a durable timer, skipped by the test server's
 * time skipping), a last failure has the local message ({@code (after 3 attempts)}), and the trace
 * lists the failed attempts as a local run's does.
 */
class RetryTest {

    private static final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("retry");
        workers = PlanWorkers.builder(TestTemporal.environment().getWorkflowClient())
                .taskQueue(queue)
                .tools(tools())
                .build()
                .start();
    }

    @AfterAll
    static void stopWorkers() {
        workers.close();
    }

    @BeforeEach
    void reset() {
        calls.clear();
    }

    @Test
    void a_long_retry_after_is_a_durable_wait_that_time_skipping_passes() {
        long start = System.nanoTime();
        PlanResponse response = run("flaky");
        Duration wall = Duration.ofNanos(System.nanoTime() - start);

        assertThat(response.status()).isEqualTo("succeeded");
        assertThat(response.finalAnswer().asText()).isEqualTo("flaky answered at attempt 3");
        Duration workflowTime = Duration.between(
                Instant.parse(response.trace().get("started").asText()),
                Instant.parse(response.trace().get("finished").asText()));
        assertThat(workflowTime)
                .as("two waits of 45 s, on the workflow's clock")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(90));
        // the waits add up to 90 s: a minute is a wide margin, not a timing target
        assertThat(wall).as("skipped, not waited").isLessThan(Duration.ofSeconds(60));
        JsonNode attempts = response.trace().at("/steps/0/inputs/attempts");
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(0).get("waited_ms").asLong()).isEqualTo(45_000);
        assertThat(attempts.get(1).get("error").asText()).isEqualTo("HTTP 429: slow down");
        assertSameAsLocally("flaky", response);
    }

    @Test
    void the_last_failure_says_how_many_attempts_were_made_as_locally() {
        PlanResponse response = run("broken");

        assertThat(response.status()).isEqualTo("failed");
        assertThat(response.error().describe())
                .isEqualTo("seq_no 0 (calling): tool 'broken' failed: HTTP 503: down (after 3 attempts)");
        assertThat(calls.get("broken")).hasValue(3);
        assertThat(response.trace().at("/steps/0/inputs/attempts")).hasSize(3);
        assertSameAsLocally("broken", response);
    }

    @Test
    void a_failure_that_cannot_pass_is_not_retried() {
        PlanResponse response = run("refused");

        assertThat(response.error().message()).isEqualTo("tool 'refused' failed: HTTP 404: no such city");
        assertThat(calls.get("refused")).hasValue(1);
        assertSameAsLocally("refused", response);
    }

    @Test
    void a_retry_after_longer_than_the_run_waits_fails_at_once_saying_so() {
        PlanResponse response = run("greedy");

        assertThat(response.error().message())
                .isEqualTo("tool 'greedy' failed: HTTP 429: later (the server asks to wait"
                        + " 90 s before retrying, more than the 60 s planvm waits)");
        assertThat(calls.get("greedy")).hasValue(1);
        assertSameAsLocally("greedy", response);
    }

    private static PlanResponse run(String tool) {
        return TestTemporal.plans(queue).run(PlanRequest.live(tool + ".json", plan(tool), Map.of()));
    }

    private static String plan(String tool) {
        return "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": {\"tool_name\": \"" + tool
                + "\", \"tool_params\": {}, \"output_vars\": \"final_answer\"}}]";
    }

    /** The same plan run locally with the same tools (waits not waited) fails or succeeds with the same steps. */
    private static void assertSameAsLocally(String tool, PlanResponse remote) {
        calls.clear();
        PlanVm vm = PlanVm.builder().tools(tools()).retrySleeper(duration -> {}).build();
        RunResult local = vm.run(vm.loader().load(plan(tool), tool + ".json").planOrThrow(), Map.of());
        assertThat(remote.status()).isEqualTo(local.status().label());
        assertThat(remote.finalAnswer()).isEqualTo(local.finalAnswer());
        assertThat(Steps.of(remote.trace())).isEqualTo(Steps.of(local.trace()));
    }

    private static List<Tool> tools() {
        return List.of(
                Tool.of("flaky", "fails twice asking to wait 45 s", (params, context) -> {
                    int attempt = count("flaky");
                    if (attempt < 3) {
                        throw ToolException.retryAfter("HTTP 429: slow down", Duration.ofSeconds(45));
                    }
                    return TextNode.valueOf("flaky answered at attempt " + attempt);
                }),
                Tool.of("broken", "always fails", (params, context) -> {
                    count("broken");
                    throw ToolException.transientFailure("HTTP 503: down", null);
                }),
                Tool.of("refused", "fails for good", (params, context) -> {
                    count("refused");
                    throw ToolException.permanent("HTTP 404: no such city");
                }),
                Tool.of("greedy", "asks to wait too long", (params, context) -> {
                    count("greedy");
                    throw ToolException.retryAfter("HTTP 429: later", Duration.ofSeconds(90));
                }));
    }

    private static int count(String tool) {
        return calls.computeIfAbsent(tool, t -> new AtomicInteger()).incrementAndGet();
    }
}
