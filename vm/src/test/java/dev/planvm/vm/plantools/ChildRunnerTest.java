package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A VM whose child runs run elsewhere ({@code PlanVmBuilder.childRunner}, as a Temporal workflow runs them):
 * the call is checked as locally, the runner gets the child's inputs and names its id in the trace, and
 * its result is the plan tool's answer, checked against {@code output}.
 */
class ChildRunnerTest {

    private static final String COUNT = """
            {"name": "count", "inputs": {"type": "object", "properties": {"text": {"type": "string"},
              "by": {"type": "integer", "default": 1}}, "required": ["text"]},
             "output": {"type": "integer"},
             "plan": [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${len(text) * by}"}}]}""";

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    /** Answers every child with {@code answer}, keeping the inputs it was given. */
    private static final class Recorder implements ChildRunner {
        final List<Map<String, JsonNode>> inputs = new ArrayList<>();
        JsonNode answer = IntNode.valueOf(42);
        RunStatus status = RunStatus.SUCCEEDED;

        @Override
        public String childId(PlanTool tool, Call.ToolCall call) {
            return "remote-" + tool.name() + "-" + call.context().seqNo();
        }

        @Override
        public ChildRuns.Outcome run(
                String childId,
                PlanTool tool,
                Map<String, JsonNode> childInputs,
                Call.ToolCall call,
                RunOptions options,
                Consumer<List<Interaction>> recorded) {
            inputs.add(childInputs);
            RunError error = status == RunStatus.SUCCEEDED ? null : new RunError(0, "assign", "it broke", null);
            return new ChildRuns.Outcome(
                    new RunResult(status, answer, Map.of(), error, 1, Duration.ZERO, null, List.of(), null), List.of());
        }
    }

    private static String parent(String params) {
        return """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "count", "tool_params": %s,
                   "output_vars": ["final_answer"]}}]""".formatted(params);
    }

    @Test
    void the_runner_runs_the_child_with_its_inputs_and_the_trace_names_its_id() {
        Recorder runner = new Recorder();
        try (PlanVm vm =
                PlanVm.builder().planTool(plan(COUNT)).childRunner(runner).build()) {
            RunResult result = vm.run(plan(parent("{\"text\": \"abc\"}")), Map.of());

            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            assertThat(result.finalAnswer().intValue()).isEqualTo(42); // the runner's answer, not a local run's 3
            assertThat(runner.inputs)
                    .containsExactly(Map.of("text", TextNode.valueOf("abc"), "by", IntNode.valueOf(1)));
            assertThat(result.trace().at("/calls/0/child_run_id").asText()).isEqualTo("remote-count-0");
        }
    }

    @Test
    void params_that_do_not_fit_never_reach_the_runner_and_a_wrong_answer_or_failure_fails_the_step() {
        Recorder runner = new Recorder();
        try (PlanVm vm =
                PlanVm.builder().planTool(plan(COUNT)).childRunner(runner).build()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> vm.run(plan(parent("{\"text\": 5}")), Map.of()))
                    .isInstanceOf(dev.planvm.vm.PlanRejectedException.class)
                    .hasMessageContaining("params do not fit the schema of tool 'count'");
            RunResult refused = vm.run(plan(parent("{\"text\": \"${five}\"}")), Map.of("five", IntNode.valueOf(5)));
            assertThat(refused.error().message()).contains("params do not fit the schema of tool 'count'");
            assertThat(runner.inputs).isEmpty();

            runner.answer = TextNode.valueOf("many");
            RunResult wrong = vm.run(plan(parent("{\"text\": \"abc\"}")), Map.of());
            assertThat(wrong.error().message())
                    .contains("plan tool 'count' answered a final_answer that does not fit its output schema");

            runner.status = RunStatus.FAILED;
            RunResult failed = vm.run(plan(parent("{\"text\": \"abc\"}")), Map.of());
            assertThat(failed.error().message())
                    .contains("plan tool 'count' failed at its seq_no 0 (assign): it broke");
        }
    }
}
