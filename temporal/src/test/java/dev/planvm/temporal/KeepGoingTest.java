package dev.planvm.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.temporal.contract.PlanRequest;
import dev.planvm.temporal.contract.PlanResponse;
import dev.planvm.temporal.contract.RunSettings;
import dev.planvm.temporal.contract.StepFailure;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DataConverter;
import io.temporal.common.converter.DefaultDataConverter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code --keep-going} on Temporal: the workflow's interpreter lets a failed step go on as a local run that keeps
 * going does, and the response lists the failed steps a local result lists (and {@code show} has them); a request written before the setting
 * existed still reads, as a run that stops at its first failure.
 */
class KeepGoingTest {

    /** A failing call in the middle, then a step that reads what it did not write: two failures, two kinds. */
    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"text": "a"},
              "output_vars": "first"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "boom", "tool_params": {},
              "output_vars": "middle"}},
             {"seq_no": 2, "type": "assign", "parameters": {"copy": "${middle}"}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "echo", "tool_params": {"text": "${first}-c"},
              "output_vars": "last"}},
             {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${first}/${last}"}}]""";

    private static String queue;
    private static PlanWorkers workers;

    @BeforeAll
    static void startWorkers() {
        queue = TestTemporal.queue("keep-going");
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

    @Test
    void a_workflow_that_keeps_going_lists_the_failed_steps_a_local_run_lists() {
        TemporalPlans plans = TestTemporal.plans(queue);
        String id = plans.start(
                PlanRequest.builder("keep.json", PLAN, Map.of())
                        .settings(RunSettings.builder().keepGoing(true).build())
                        .build(),
                null);
        PlanResponse remote = plans.result(id);
        RunResult local = localRun(true);

        assertThat(remote.status()).isEqualTo(local.status().label()).isEqualTo("completed_with_failures");
        assertThat(remote.finalAnswer()).isEqualTo(local.finalAnswer()).isEqualTo(TextNode.valueOf("a/a-c"));
        assertThat(remote.steps()).isEqualTo(local.steps()).isEqualTo(5);
        assertThat(Steps.of(remote.trace())).isEqualTo(Steps.of(local.trace()));
        assertThat(remote.failedSteps())
                .extracting(StepFailure::seqNo, StepFailure::type, StepFailure::tool, StepFailure::kind)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, "calling", "boom", "tool_error"),
                        org.assertj.core.groups.Tuple.tuple(2, "assign", null, "step_failed"));
        assertThat(remote.failedSteps())
                .extracting(StepFailure::message)
                .containsExactlyElementsOf(local.failedSteps().stream()
                        .map(failed -> failed.message())
                        .toList());
        assertThat(remote.trace().get("failed_steps")).isEqualTo(local.trace().get("failed_steps"));
        assertThat(plans.show(id).get("failed_steps")).isEqualTo(local.trace().get("failed_steps"));
    }

    @Test
    void a_workflow_that_does_not_keep_going_stops_at_the_first_failure_as_locally() {
        PlanResponse remote = TestTemporal.plans(queue).run(PlanRequest.live("stop.json", PLAN, Map.of()));
        RunResult local = localRun(false);

        assertThat(remote.status()).isEqualTo(local.status().label()).isEqualTo("failed");
        assertThat(remote.error().describe()).isEqualTo(local.error().describe());
        assertThat(remote.error().seqNo()).isEqualTo(1);
        assertThat(remote.failedSteps()).isEmpty();
    }

    @Test
    void a_request_written_before_keep_going_existed_reads_as_one_that_stops() throws Exception {
        DataConverter converter = DefaultDataConverter.newDefaultInstance();
        PlanRequest request = PlanRequest.live("old.json", PLAN, Map.of());
        ObjectMapper json = new ObjectMapper();
        ObjectNode written = (ObjectNode) json.readTree(
                converter.toPayload(request).orElseThrow().getData().toStringUtf8());
        ((ObjectNode) written.get("settings")).remove("keepGoing");
        assertThat(written.get("settings").has("maxSteps")).isTrue();

        Payload old = converter.toPayload(written).orElseThrow();
        PlanRequest read = converter.fromPayload(old, PlanRequest.class, PlanRequest.class);

        assertThat(read.settings().keepGoing()).isFalse();
        assertThat(read.settings().maxSteps()).isEqualTo(request.settings().maxSteps());
        assertThat(read.plan()).isEqualTo(PLAN);
        PlanResponse oldResponse = converter.fromPayload(
                converter
                        .toPayload(json.readTree("{\"status\": \"succeeded\", \"steps\": 1}"))
                        .orElseThrow(),
                PlanResponse.class,
                PlanResponse.class);
        assertThat(oldResponse.failedSteps()).isEmpty();
        assertThat(Optional.ofNullable(oldResponse.error())).isEmpty();
    }

    private static RunResult localRun(boolean keepGoing) {
        PlanVm vm = PlanVm.builder().tools(tools()).build();
        return vm.run(RunRequest.builder(vm.loader().load(PLAN, "local.json").planOrThrow())
                .options(RunOptions.DEFAULT.withKeepGoing(keepGoing))
                .build());
    }

    private static List<Tool> tools() {
        return List.of(
                Tool.of("echo", "answers its text", (params, context) -> params.get("text")),
                Tool.of("boom", "fails for good", (params, context) -> {
                    throw ToolException.permanent("HTTP 500: the middle step broke");
                }));
    }
}
