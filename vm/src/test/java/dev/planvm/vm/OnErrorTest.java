package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepError;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@code on_error} on {@code calling}, {@code last_error}, and runs that keep going past failed steps. */
class OnErrorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TestTools tools = new TestTools();

    private PlanVm vm(boolean sequential) {
        return PlanVm.builder().tools(tools.tools()).sequential(sequential).build();
    }

    private static Plan load(PlanVm vm, String json) {
        return vm.loader().load(json, "on-error.json").planOrThrow();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static RunResult keepGoing(PlanVm vm, Plan plan) {
        return vm.run(RunRequest.builder(plan)
                .options(RunOptions.DEFAULT.withKeepGoing(true))
                .build());
    }

    @Test
    void on_error_value_binds_the_value_to_the_output_vars_and_goes_on() {
        for (boolean sequential : List.of(true, false)) {
            PlanVm vm = vm(sequential);
            RunResult result = vm.run(load(vm, """
                            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail",
                               "tool_params": {"message": "boom"}, "output_vars": "docs", "on_error": {"value": []}}},
                             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "object",
                               "tool_params": {"n": "${len(docs)}"}, "output_vars": "n"}},
                             {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${n.n}"}}]"""), Map.of());
            assertThat(result.succeeded()).as("sequential " + sequential).isTrue();
            assertThat(result.variables().get("docs")).isEqualTo(json("[]"));
            assertThat(result.finalAnswer().asInt()).isZero();
            assertThat(result.failedSteps()).isEmpty();
        }
    }

    @Test
    void on_error_value_fills_each_of_several_output_vars_from_an_object_as_a_tool_output_would() {
        PlanVm vm = vm(true);
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "output_vars": ["a", "b"],
                           "on_error": {"value": {"a": 1, "b": "two"}}}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a} ${b}"}}]"""), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("1 two");
    }

    @Test
    void last_error_names_the_step_the_tool_the_kind_and_the_message() {
        PlanVm vm = vm(true);
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 3, "type": "calling", "parameters": {"tool_name": "fail",
                           "tool_params": {"message": "no route"}, "output_vars": "x", "on_error": {"value": null}}},
                         {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${last_error}"}}]"""), Map.of());
        assertThat(result.finalAnswer()).isEqualTo(json("""
                        {"seq_no": 3, "tool": "fail", "kind": "tool_error", "message": "tool 'fail' failed: no route"}"""));
        assertThat(result.variables().get("x").isNull()).isTrue();
    }

    @Test
    void on_error_jump_continues_at_its_target_without_writing_the_output_vars() {
        for (boolean sequential : List.of(true, false)) {
            PlanVm vm = vm(sequential);
            RunResult result = vm.run(load(vm, """
                            [{"seq_no": 0, "type": "assign", "parameters": {"docs": "old"}},
                             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "fail", "output_vars": "docs",
                               "on_error": {"jump": 4}}},
                             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "counter", "output_vars": "c"}},
                             {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 5}},
                             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "text",
                               "tool_params": {"text": "fallback after ${last_error.seq_no}, docs ${docs}"}, "output_vars": "final_answer"}},
                             {"seq_no": 5, "type": "reasoning", "parameters": {}}]"""), Map.of());
            assertThat(result.finalAnswer().asText())
                    .as("sequential " + sequential)
                    .isEqualTo("fallback after 1, docs old");
            assertThat(tools.calls).doesNotContainKey("counter"); // the jump skipped seq_no 2, early calls too
        }
    }

    @Test
    void a_calling_that_succeeds_leaves_last_error_as_it_was() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "output_vars": "a",
                           "on_error": {"value": 0}}},
                         {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "counter", "output_vars": "b",
                           "on_error": {"value": 0}}},
                         {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "text",
                           "tool_params": {"text": "${b} ${last_error.seq_no}"}, "output_vars": "final_answer"}}]"""), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("1 0");
    }

    @Test
    void retries_happen_first_and_on_error_acts_on_the_final_failure() {
        AtomicInteger attempts = new AtomicInteger();
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("flaky", "", (p, c) -> {
                    attempts.incrementAndGet();
                    throw ToolException.transientFailure("503", null);
                }))
                .retryPolicy(new RetryPolicy(3, Duration.ZERO, Duration.ZERO))
                .build();
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "flaky", "output_vars": "x",
                           "on_error": {"value": "gave up"}}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${x}: ${last_error.message}"}}]"""), Map.of());
        assertThat(attempts).hasValue(3);
        assertThat(result.finalAnswer().asText()).isEqualTo("gave up: tool 'flaky' failed: 503 (after 3 attempts)");
        JsonNode step = result.trace().at("/steps/0");
        assertThat(step.path("handled").asText()).isEqualTo("value");
        assertThat(step.path("error").asText()).isEqualTo("tool 'flaky' failed: 503 (after 3 attempts)");
        assertThat(step.at("/inputs/attempts")).hasSize(3);
        assertThat(result.trace().at("/calls/0/outcome").asText()).isEqualTo("failed");
    }

    @Test
    void a_timeout_and_a_denial_have_their_own_kinds() {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("slow", "", (p, c) -> {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf("late");
                }))
                .tool(Tool.of("secret", "", (p, c) -> TextNode.valueOf("s")))
                .callTimeout("slow", Duration.ofMillis(50))
                .retryPolicy(RetryPolicy.NONE)
                .approveTools(List.of("secret"))
                .approvals(
                        call -> java.util.Optional.of(dev.planvm.tools.approval.Approvals.Decision.deny("not today")))
                .build();
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "output_vars": "a",
                           "on_error": {"value": null}}},
                         {"seq_no": 1, "type": "assign", "parameters": {"k0": "${last_error.kind}"}},
                         {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "secret", "output_vars": "b",
                           "on_error": {"value": null}}},
                         {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${k0} ${last_error.kind}"}}]"""), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("timeout denied");
    }

    @Test
    void a_recorded_run_replays_its_failed_calls_with_the_same_last_error() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "slow", "output_vars": "a",
                   "on_error": {"value": null}}},
                 {"seq_no": 1, "type": "assign", "parameters": {"first": "${last_error}"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "broken", "tool_params": {"n": 1},
                   "output_vars": "b", "on_error": {"value": "fallback"}}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": {"first": "${first}",
                   "second": "${last_error}", "b": "${b}"}}}]""";
        PlanVm live = PlanVm.builder()
                .tool(Tool.of("slow", "", (p, c) -> {
                    try {
                        Thread.sleep(10_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return TextNode.valueOf("late");
                }))
                .tool(Tool.of("broken", "", (p, c) -> {
                    throw ToolException.permanent("the index is gone");
                }))
                .callTimeout("slow", Duration.ofMillis(50))
                .retryPolicy(RetryPolicy.NONE)
                .build();
        RunMode.Record record = RunMode.record();
        RunResult recorded = live.run(load(live, plan), Map.of(), record);
        PlanVm offline = PlanVm.builder()
                .tool(Tool.of("slow", "", (p, c) -> {
                    throw new AssertionError("a replay calls nothing");
                }))
                .tool(Tool.of("broken", "", (p, c) -> {
                    throw new AssertionError("a replay calls nothing");
                }))
                .build();
        RunResult replayed = offline.run(
                load(offline, plan), Map.of(), RunMode.replay(record.recording().cassette(), false));

        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(recorded.finalAnswer().at("/first/kind").asText()).isEqualTo("timeout");
        assertThat(recorded.finalAnswer().at("/second/kind").asText()).isEqualTo("tool_error");
        assertThat(recorded.finalAnswer().at("/second/message").asText()).contains("the index is gone");
        assertThat(replayed.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
    }

    @Test
    void on_error_never_catches_a_limit_that_protects_the_machine() {
        PlanVm vm = PlanVm.builder()
                .tools(tools.tools())
                .runLimits(RunLimits.DEFAULT.withMaxStringLength(10))
                .build();
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "assign", "parameters": {"s": "xxxxxxxx"}},
                         {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "text",
                           "tool_params": {"text": "${s}${s}${s}"}, "output_vars": "a", "on_error": {"value": ""}}},
                         {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "went on"}}]"""), Map.of());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.variables()).doesNotContainKey("last_error");
    }

    @Test
    void the_step_limit_stops_a_loop_of_on_error_jumps() {
        PlanVm vm = PlanVm.builder().tools(tools.tools()).maxSteps(20).build();
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "on_error": {"jump": 0}}}]"""), Map.of());
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(tools.calls.get("fail")).hasValue(20);
    }

    @Test
    void without_on_error_a_failed_call_still_fails_the_run() {
        PlanVm vm = vm(false);
        RunResult result = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail",
                           "tool_params": {"message": "boom"}, "output_vars": "x"}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": 1}}]"""), Map.of());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().describe()).isEqualTo("seq_no 0 (calling): tool 'fail' failed: boom");
        assertThat(result.trace().at("/steps/0").has("handled")).isFalse();
        assertThat(result.failedSteps()).isEmpty();
    }

    @Test
    void a_run_that_keeps_going_records_each_failed_step_and_goes_on_with_the_next() {
        for (boolean sequential : List.of(true, false)) {
            PlanVm vm = vm(sequential);
            RunResult result = keepGoing(vm, load(vm, """
                            [{"seq_no": 0, "type": "assign", "parameters": {"a": "before"}},
                             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "fail",
                               "tool_params": {"message": "down"}, "output_vars": "a"}},
                             {"seq_no": 2, "type": "assign", "parameters": {"b": "${nope.x}"}},
                             {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${nope}", "jump_if_true": 5}},
                             {"seq_no": 4, "type": "calling", "parameters": {"tool_name": "text",
                               "tool_params": {"text": "${a}"}, "output_vars": "final_answer"}},
                             {"seq_no": 5, "type": "reasoning", "parameters": {}}]"""));
            assertThat(result.status()).as("sequential " + sequential).isEqualTo(RunStatus.COMPLETED_WITH_FAILURES);
            assertThat(result.error()).isNull();
            assertThat(result.trace().path("status").asText()).isEqualTo("completed_with_failures");
            assertThat(result.anyStepFailed()).isTrue();
            assertThat(result.finalAnswer().asText()).isEqualTo("before");
            assertThat(result.failedSteps())
                    .extracting(StepError::seqNo, StepError::type, StepError::kind)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple(1, "calling", StepError.Kind.TOOL_ERROR),
                            org.assertj.core.groups.Tuple.tuple(2, "assign", StepError.Kind.STEP_FAILED),
                            org.assertj.core.groups.Tuple.tuple(3, "jmp", StepError.Kind.STEP_FAILED));
            assertThat(result.failedSteps().get(0).message()).isEqualTo("tool 'fail' failed: down");
            assertThat(result.trace().at("/failed_steps")).hasSize(3);
            assertThat(result.trace().at("/steps/1/handled").asText()).isEqualTo("keep_going");
            assertThat(result.trace().path("steps")).hasSize(6);
        }
    }

    @Test
    void a_run_that_keeps_going_still_stops_at_a_limit() {
        PlanVm vm = PlanVm.builder().tools(tools.tools()).maxSteps(3).build();
        RunResult result = keepGoing(vm, load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail"}},
                         {"seq_no": 1, "type": "jmp", "parameters": {"target_seq": 0}}]"""));
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(result.failedSteps()).extracting(StepError::seqNo).containsExactly(0, 0);
    }

    @Test
    void in_a_run_that_keeps_going_on_error_still_decides_first() {
        PlanVm vm = vm(true);
        RunResult result = keepGoing(vm, load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "output_vars": "a",
                           "on_error": {"value": "fallback"}}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a}"}}]"""));
        assertThat(result.finalAnswer().asText()).isEqualTo("fallback");
        assertThat(result.failedSteps()).isEmpty();
    }

    private static final String VALUE_THAT_DOES_NOT_BIND = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {"message": "down"},
               "output_vars": ["a", "b"], "on_error": {"value": "not an object"}}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "went on"}}]""";

    @Test
    void an_on_error_value_that_cannot_be_bound_fails_the_run_with_the_calls_own_error() {
        PlanVm vm = vm(true);
        RunResult result = vm.run(load(vm, VALUE_THAT_DOES_NOT_BIND), Map.of());
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().describe()).isEqualTo("seq_no 0 (calling): tool 'fail' failed: down");
        assertThat(result.variables()).doesNotContainKeys("a", "b", "last_error");
    }

    @Test
    void a_run_that_keeps_going_goes_on_past_an_on_error_value_that_cannot_be_bound() {
        PlanVm vm = vm(true);
        RunResult result = keepGoing(vm, load(vm, VALUE_THAT_DOES_NOT_BIND));
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED_WITH_FAILURES);
        assertThat(result.finalAnswer().asText()).isEqualTo("went on");
        assertThat(result.failedSteps())
                .extracting(StepError::seqNo, StepError::message)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(0, "tool 'fail' failed: down"));
        assertThat(result.trace().at("/steps/0/handled").asText()).isEqualTo("keep_going");
    }

    @Test
    void a_failure_whose_causes_form_a_cycle_fails_its_step_and_on_error_still_handles_it() {
        Tool looping = Tool.of("looping", "Fails with causes that cite each other.", (p, c) -> {
            RuntimeException first = new RuntimeException("first");
            RuntimeException second = new RuntimeException("second", first);
            first.initCause(second);
            throw first;
        });
        PlanVm vm = PlanVm.builder().tool(looping).retryPolicy(RetryPolicy.NONE).build();
        RunResult failed = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "looping", "output_vars": "a"}}]"""), Map.of());
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.error().seqNo()).isZero();
        assertThat(failed.error().message()).contains("first");

        RunResult handled = vm.run(load(vm, """
                        [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "looping", "output_vars": "a",
                           "on_error": {"value": "fallback"}}},
                         {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a} ${last_error.kind}"}}]"""), Map.of());
        assertThat(handled.finalAnswer().asText()).isEqualTo("fallback tool_error");
    }
}
