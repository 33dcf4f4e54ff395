package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunControl;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepFailure;
import dev.planvm.vm.run.StepRecord;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The run loop as a caller sees it: the step limit at its boundary, what listeners hear (and that
 * a failing one changes nothing), how an unexpected failure is described, the
 * message of a run waiting for approval, and a run stopped before a step.
 */
class InterpreterRunTest {

    private static final String THREE_STEPS = """
            [{"seq_no": 0, "type": "assign", "parameters": {"a": "1"}},
             {"seq_no": 1, "type": "assign", "parameters": {"b": "2"}},
             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a}${b}"}}]""";

    private static Plan load(PlanVm vm, String json) {
        return vm.loader().load(json, "p.json").planOrThrow();
    }

    @Test
    void a_run_of_exactly_max_steps_succeeds_and_one_step_more_fails_at_that_step() {
        PlanVm enough = PlanVm.builder().maxSteps(3).build();
        RunResult result = enough.run(load(enough, THREE_STEPS), Map.of());
        assertThat(result.succeeded()).isTrue();
        assertThat(result.steps()).isEqualTo(3);
        assertThat(result.finalAnswer().asText()).isEqualTo("12");

        PlanVm tooFew = PlanVm.builder().maxSteps(2).build();
        RunResult stopped = tooFew.run(load(tooFew, THREE_STEPS), Map.of());
        assertThat(stopped.status()).isEqualTo(RunStatus.FAILED);
        assertThat(stopped.steps()).isEqualTo(2);
        assertThat(stopped.error().seqNo()).isEqualTo(2);
        assertThat(stopped.error().type()).isEqualTo("assign");
        assertThat(stopped.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(stopped.error().message()).startsWith("the run exceeded the limit of 2 steps (--max-steps)");
        assertThat(stopped.variables()).containsOnlyKeys("a", "b");
    }

    @Test
    void listeners_hear_every_event_in_order_and_one_that_fails_changes_nothing() {
        List<String> heard = new CopyOnWriteArrayList<>();
        RunListener failing = new RunListener() {
            @Override
            public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
                throw new IllegalStateException("listener broken");
            }

            @Override
            public void stepStarted(Instruction instruction) {
                throw new IllegalStateException("listener broken");
            }

            @Override
            public void stepFinished(StepRecord step) {
                throw new IllegalStateException("listener broken");
            }

            @Override
            public void runFinished(RunResult result) {
                throw new IllegalStateException("listener broken");
            }
        };
        RunListener recording = new RunListener() {
            @Override
            public void runStarted(Plan plan, Map<String, JsonNode> inputs) {
                heard.add("run started " + inputs.keySet());
            }

            @Override
            public void stepStarted(Instruction instruction) {
                heard.add("step started " + instruction.seqNo());
            }

            @Override
            public void stepFinished(StepRecord step) {
                heard.add("step finished " + step.seqNo());
            }

            @Override
            public void runFinished(RunResult result) {
                heard.add("run finished " + result.status());
            }
        };
        PlanVm vm = PlanVm.builder().build();

        RunResult result = vm.run(RunRequest.builder(load(vm, THREE_STEPS))
                .inputs(Map.of("x", TextNode.valueOf("y")))
                .listeners(List.of(failing, recording))
                .build());

        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("12");
        assertThat(heard)
                .containsExactly(
                        "run started [x]",
                        "step started 0",
                        "step finished 0",
                        "step started 1",
                        "step finished 1",
                        "step started 2",
                        "step finished 2",
                        "run finished SUCCEEDED");
    }

    @Test
    void each_step_is_placed_within_the_run_in_order() {
        List<StepRecord> records = new CopyOnWriteArrayList<>();
        PlanVm vm = PlanVm.builder().build();

        RunResult result = vm.run(RunRequest.builder(load(vm, THREE_STEPS))
                .listener(new RunListener() {
                    @Override
                    public void stepFinished(StepRecord step) {
                        records.add(step);
                    }
                })
                .build());

        assertThat(records).extracting(StepRecord::seqNo).containsExactly(0, 1, 2);
        long previousEnd = 0;
        for (StepRecord record : records) {
            assertThat(record.offsetNanos())
                    .as("offset of seq_no %d", record.seqNo())
                    .isGreaterThanOrEqualTo(previousEnd);
            assertThat(record.durationNanos()).isNotNegative();
            previousEnd = record.offsetNanos() + record.durationNanos();
        }
        assertThat(result.duration().toNanos())
                .as("the run lasts past its last step")
                .isGreaterThanOrEqualTo(previousEnd);
    }

    @Test
    void a_failed_step_is_told_to_listeners_and_ends_the_run() {
        List<String> heard = new CopyOnWriteArrayList<>();
        PlanVm vm = PlanVm.builder()
                .handler("boom", (instruction, step) -> {
                    throw new StepFailure("it went boom");
                })
                .build();
        RunResult result = vm.run(RunRequest.builder(load(vm, """
                        [{"seq_no": 0, "type": "boom"},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "never"}}]"""))
                .listener(new RunListener() {
                    @Override
                    public void stepFinished(StepRecord step) {
                        heard.add(step.seqNo() + " " + step.error());
                    }
                })
                .build());

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.steps()).isEqualTo(1);
        assertThat(result.error().message()).isEqualTo("it went boom");
        assertThat(heard).containsExactly("0 it went boom");
        assertThat(result.finalAnswer().isNull()).isTrue();
    }

    @Test
    void an_unexpected_failure_is_described_by_its_class_and_message() {
        PlanVm vm = PlanVm.builder()
                .handler("bad", (instruction, step) -> {
                    throw new IllegalArgumentException("bad thing");
                })
                .handler("mute", (instruction, step) -> {
                    throw new IllegalStateException();
                })
                .build();

        RunResult bad = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "assign", "parameters": {"a": "1"}},
                         {"seq_no": 1, "type": "assign", "parameters": {"b": "2"}},
                         {"seq_no": 2, "type": "bad"}]"""), Map.of());
        assertThat(bad.error().message()).isEqualTo("unexpected IllegalArgumentException: bad thing");
        assertThat(bad.error().seqNo()).isEqualTo(2);
        assertThat(bad.error().type()).isEqualTo("bad");

        RunResult mute = vm.run(load(vm, "[{\"seq_no\": 0, \"type\": \"mute\"}]"), Map.of());
        assertThat(mute.error().message()).isEqualTo("unexpected IllegalStateException");
        assertThat(mute.error().seqNo()).isZero();
    }

    @Test
    void a_run_waiting_for_approval_names_the_call_with_long_params_abbreviated() {
        Tool send = Tool.of("send_mail", "sends", (params, context) -> TextNode.valueOf("sent"));
        PlanVm vm = PlanVm.builder().tool(send).approveTools(List.of("send_*")).build();
        String body = "x".repeat(400);

        RunResult waiting = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "assign", "parameters": {"a": "1"}},
                         {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"body": "%s"}}}]""".formatted(body)), Map.of());

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.steps()).as("the waiting step is not counted").isEqualTo(1);
        assertThat(waiting.pending().seqNo()).isEqualTo(1);
        assertThat(waiting.pending().tool()).isEqualTo("send_mail");
        String params = "{\"body\":\"" + body + "\"}";
        assertThat(waiting.error().message())
                .isEqualTo("waiting for approval to call tool 'send_mail' with " + params.substring(0, 300) + "… ("
                        + params.length() + " characters)");

        RunResult shortParams = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"body": "hi"}}}]"""), Map.of());
        assertThat(shortParams.error().message())
                .isEqualTo("waiting for approval to call tool 'send_mail' with {\"body\":\"hi\"}");
        assertThat(shortParams.steps()).isZero();

        String exactly300 = "y".repeat(300 - "{\"body\":\"\"}".length());
        RunResult atTheLimit = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {"body": "%s"}}}]""".formatted(exactly300)), Map.of());
        assertThat(atTheLimit.error().message())
                .as("params of exactly 300 characters are shown whole")
                .isEqualTo("waiting for approval to call tool 'send_mail' with {\"body\":\"" + exactly300 + "\"}");
    }

    @Test
    void a_run_cancelled_or_interrupted_stops_before_its_next_step() {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = load(vm, THREE_STEPS);

        RunControl cancel = new RunControl();
        cancel.cancel("the user asked");
        RunResult cancelled = vm.run(RunRequest.builder(plan).control(cancel).build());
        assertThat(cancelled.status()).isEqualTo(RunStatus.FAILED);
        assertThat(cancelled.error().kind()).isEqualTo(FailureKind.CANCELLED);
        assertThat(cancelled.error().seqNo()).isZero();
        assertThat(cancelled.error().message()).isEqualTo("the run was cancelled before this step: the user asked");
        assertThat(cancelled.steps()).isZero();

        RunControl interrupt = new RunControl();
        interrupt.interrupt("shutting down");
        RunResult interrupted =
                vm.run(RunRequest.builder(plan).control(interrupt).build());
        assertThat(interrupted.status()).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(interrupted.error().kind()).isEqualTo(FailureKind.INTERRUPTED);
        assertThat(interrupted.error().message())
                .isEqualTo("the run was interrupted before this step (shutting down); resume continues it here");

        RunResult free =
                vm.run(RunRequest.builder(plan).control(new RunControl()).build());
        assertThat(free.succeeded()).isTrue();
        assertThat(free.steps()).isEqualTo(3);
    }
}
