package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.InvalidPlanException;
import dev.planvm.instructions.expr.EvaluationException;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.vm.durable.DurableRunException;
import dev.planvm.vm.durable.StoreException;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepFailure;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every failure says its kind, and the kind is what front ends decide by: a run's error carries the kind of
 * what stopped it (a bound that protects the machine is {@code LIMIT_REACHED}, never an ordinary failed step),
 * and a refusal's kind does not depend on its wording.
 */
class FailureKindTest {

    private static RunResult run(PlanVm vm, String plan, Map<String, JsonNode> inputs) {
        return vm.run(vm.loader().load(plan, "p.json").planOrThrow(), inputs);
    }

    private static final Tool FAILING = Tool.of("fail", "always fails", (params, context) -> {
        throw ToolException.permanent("the service said no");
    });

    private static final Tool SPENDING = Tool.of("llm", "spends tokens", (params, context) -> {
        context.events().tokens(new TokenCount(100, 20));
        return TextNode.valueOf("answer");
    });

    @Test
    void a_tool_that_fails_is_a_failed_step() {
        RunResult result = run(PlanVm.builder().tool(FAILING).build(), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {}}}]""", Map.of());
        assertThat(result.error().kind()).isEqualTo(FailureKind.STEP_FAILED);
    }

    @Test
    void the_step_limit_is_a_limit_reached() {
        RunResult result = run(PlanVm.builder().maxSteps(5).build(), """
                [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 0}}]""", Map.of());
        assertThat(result.error().describe()).contains("--max-steps");
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
    }

    @Test
    void a_string_past_its_limit_and_a_variable_past_its_limit_are_limits_reached() {
        Map<String, JsonNode> doc = Map.of("doc", TextNode.valueOf("x".repeat(1_000_000)));
        RunResult built = run(PlanVm.builder().build(), """
                [{"seq_no": 0, "type": "assign", "parameters": {"both": "${doc} + ${doc}"}}]""", doc);
        RunResult kept = run(
                PlanVm.builder()
                        .runLimits(RunLimits.DEFAULT.withMaxValueSize(50))
                        .build(),
                """
                [{"seq_no": 0, "type": "assign", "parameters": {"copy": "${doc}"}}]""",
                Map.of("doc", TextNode.valueOf("z".repeat(100))));
        assertThat(built.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
        assertThat(kept.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
    }

    @Test
    void the_run_memory_budget_is_a_limit_reached() {
        RunResult result = run(
                PlanVm.builder()
                        .runLimits(RunLimits.DEFAULT.withMaxRunSize(1024 * 1024))
                        .build(),
                """
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"v0": "${s}${i}", "v1": "${s}${i}", "i": "${i + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${i < 100}", "jump_if_true": 1}}]""",
                Map.of("s", TextNode.valueOf("x".repeat(64 * 1024))));
        assertThat(result.error().describe()).contains("--max-run-memory");
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
    }

    @Test
    void a_spent_token_budget_is_a_limit_reached() {
        RunResult result = run(PlanVm.builder().tool(SPENDING).maxTokens(150).build(), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {}, "output_vars": "b"}}]""", Map.of());
        assertThat(result.error().describe()).contains("token budget");
        assertThat(result.error().kind()).isEqualTo(FailureKind.LIMIT_REACHED);
    }

    @Test
    void a_call_waiting_for_approval_is_waiting_for_approval() {
        Tool send = Tool.of("send_mail", "sends", (params, context) -> TextNode.valueOf("sent"));
        RunResult result =
                run(PlanVm.builder().tool(send).approveTools(List.of("send_*")).build(), """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "send_mail", "tool_params": {}}}]""", Map.of());
        assertThat(result.waiting()).isTrue();
        assertThat(result.error().kind()).isEqualTo(FailureKind.WAITING_FOR_APPROVAL);
    }

    @Test
    void a_kind_is_read_back_from_its_label_and_an_unknown_label_is_no_kind() {
        for (FailureKind kind : FailureKind.values()) {
            assertThat(FailureKind.ofLabel(kind.label())).isEqualTo(kind);
        }
        assertThat(FailureKind.ofLabel("waiting_for_input")).isEqualTo(FailureKind.WAITING_FOR_INPUT);
        assertThat(FailureKind.ofLabel("a_kind_of_a_later_version")).isNull();
        assertThat(FailureKind.ofLabel(null)).isNull();
    }

    @Test
    void a_refusal_keeps_its_kind_whatever_its_message_says() {
        assertThat(DurableRunException.noSuchRun("anything at all").kind()).isEqualTo(FailureKind.NO_SUCH_RUN);
        assertThat(FailureKind.of(DurableRunException.noSuchRun("run 7 already succeeded")))
                .isEqualTo(FailureKind.NO_SUCH_RUN);
        assertThat(FailureKind.of(new DurableRunException("no run 'x' in here")))
                .isEqualTo(FailureKind.CONFLICT);
        assertThat(FailureKind.of(new StoreException("the disk is full", null, false)))
                .isEqualTo(FailureKind.STORE_FAILED);
        assertThat(FailureKind.of(new StoreException("a reworded sentence", null, true)))
                .isEqualTo(FailureKind.STORE_FULL);
        assertThat(FailureKind.of(new EvaluationException("built a string of 2,000,003 characters; the limit is 1")))
                .as("an ordinary evaluation error that merely mentions a limit")
                .isEqualTo(FailureKind.STEP_FAILED);
        assertThat(FailureKind.of(EvaluationException.limit("too big"))).isEqualTo(FailureKind.LIMIT_REACHED);
    }

    @Test
    void a_kind_is_found_through_the_causes_and_a_step_is_never_a_refusal_before_running() {
        StepFailure wrapped =
                new StepFailure("tool 'x' failed", new RuntimeException(new StoreException("w", null, true)));
        assertThat(FailureKind.of(wrapped)).isEqualTo(FailureKind.STORE_FULL);
        StepFailure loadsBadPlan =
                new StepFailure("tool 'sub' failed", new InvalidPlanException("sub.json", List.of()));
        assertThat(FailureKind.of(loadsBadPlan)).isEqualTo(FailureKind.INVALID_PLAN);
        assertThat(FailureKind.ofStep(loadsBadPlan)).isEqualTo(FailureKind.STEP_FAILED);
        assertThat(FailureKind.ofStep(null)).isEqualTo(FailureKind.STEP_FAILED);
    }
}
