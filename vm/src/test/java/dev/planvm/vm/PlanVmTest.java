package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.Tool;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class PlanVmTest {

    private static Plan load(PlanVm vm, String json) {
        return vm.loader().load(json, "test.json").planOrThrow();
    }

    @Test
    void a_plan_calling_a_tool_that_is_not_installed_is_refused_before_anything_runs() {
        TestTools tools = new TestTools();
        PlanVm vm = PlanVm.builder().tools(tools.tools()).build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "counter", "output_vars": "n"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "web_search", "output_vars": "x"}}]""");
        assertThatThrownBy(() -> vm.run(plan, Map.of()))
                .isInstanceOfSatisfying(
                        PlanRejectedException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        "seq_no 1: tool 'web_search' is not installed (installed: counter, fail, object, text, upper)"));
        assertThat(tools.calls).isEmpty();
    }

    @Test
    void a_plan_with_an_llm_condition_is_refused_without_a_condition_evaluator() {
        PlanVm vm = PlanVm.builder().build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "?", "jump_if_true": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": 1}}]""");
        assertThatThrownBy(() -> vm.run(plan, Map.of()))
                .isInstanceOf(PlanRejectedException.class)
                .hasMessageContaining("seq_no 0: this jmp has a condition_prompt");
    }

    @Test
    void listeners_see_every_step_in_execution_order_with_inputs_writes_and_jumps() {
        List<StepRecord> steps = new ArrayList<>();
        PlanVm vm = PlanVm.builder()
                .listener(new RunListener() {
                    @Override
                    public void stepFinished(StepRecord step) {
                        steps.add(step);
                    }
                })
                .build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"n": 0}},
                 {"seq_no": 1, "type": "assign", "parameters": {"n": "${n + 1}"}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${n < 2}", "jump_if_true": 1, "jump_if_false": 3}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${n}"}}]"""), Map.of());
        assertThat(result.finalAnswer()).isEqualTo(IntNode.valueOf(2));
        assertThat(steps).extracting(StepRecord::seqNo).containsExactly(0, 1, 2, 1, 2, 3);
        assertThat(steps.get(1).writes().get("n").asInt()).isEqualTo(1);
        assertThat(steps.get(3).writes().get("n").asInt()).isEqualTo(2);
        assertThat(steps.get(2).jumpTo()).isEqualTo(1);
        assertThat(steps.get(2).inputs().get("condition").asBoolean()).isTrue();
        assertThat(steps.get(4).jumpTo()).isEqualTo(3);
        assertThat(result.steps()).isEqualTo(6);
    }

    @Test
    void a_listener_that_throws_does_not_break_the_run() {
        PlanVm vm = PlanVm.builder()
                .listener(new RunListener() {
                    @Override
                    public void stepFinished(StepRecord step) {
                        throw new IllegalStateException("listener bug");
                    }
                })
                .build();
        RunResult result = vm.run(
                load(vm, "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1}}]"), Map.of());
        assertThat(result.succeeded()).isTrue();
    }

    @Test
    void a_custom_instruction_type_runs_through_its_registered_handler() {
        PlanVm vm = PlanVm.builder()
                .handler("shout", (instruction, step) -> {
                    JsonNode params = step.interpolate(instruction.parameters());
                    step.set(
                            params.path("into").asText(),
                            TextNode.valueOf(params.path("text").asText().toUpperCase() + "!"));
                    return Outcome.next();
                })
                .build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"who": "world"}},
                 {"seq_no": 1, "type": "shout", "parameters": {"text": "hello ${who}", "into": "final_answer"}}]""");
        assertThat(vm.run(plan, Map.of()).finalAnswer().asText()).isEqualTo("HELLO WORLD!");
        assertThat(PlanVm.builder().build().loader().load(plan.document(), "x").valid())
                .isFalse();
    }

    @Test
    void a_handler_can_halt_the_run() {
        PlanVm vm = PlanVm.builder()
                .handler("stop", (instruction, step) -> Outcome.halt())
                .build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "early"}},
                 {"seq_no": 1, "type": "stop"},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "late"}}]"""), Map.of());
        assertThat(result.finalAnswer().asText()).isEqualTo("early");
        assertThat(result.steps()).isEqualTo(2);
    }

    @Test
    void runs_on_many_threads_at_once_do_not_share_state() throws Exception {
        PlanVm vm = PlanVm.builder()
                .tool(Tool.of("twice", "", (p, c) -> IntNode.valueOf(p.path("n").asInt() * 2)))
                .build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "acc": "${start}"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "twice", "tool_params": {"n": "${acc}"}, "output_vars": "acc"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"i": "${i + 1}"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"condition": "${i < 10}", "jump_if_true": 1}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${acc}"}}]""");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<RunResult>> futures = new ArrayList<>();
            for (int start = 1; start <= 64; start++) {
                Map<String, JsonNode> inputs = Map.of("start", IntNode.valueOf(start));
                futures.add(pool.submit(() -> vm.run(plan, inputs)));
            }
            for (int start = 1; start <= 64; start++) {
                assertThat(futures.get(start - 1).get().finalAnswer().asInt()).isEqualTo(start * 1024);
            }
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void the_trace_records_each_executed_step_and_the_failure() {
        TestTools tools = new TestTools();
        PlanVm vm = PlanVm.builder().tools(tools.tools()).build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "reasoning", "parameters": {"chain_of_thoughts": "why"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "text", "tool_params": {"text": "${x}"}, "output_vars": "y"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {"message": "boom"}}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": 1}}]"""), Map.of("x", TextNode.valueOf("in")));
        JsonNode trace = result.trace();
        assertThat(trace.path("format").asText()).isEqualTo("planvm-trace/1");
        assertThat(trace.at("/plan/digest").asText()).hasSize(64);
        assertThat(trace.path("status").asText()).isEqualTo("failed");
        assertThat(trace.at("/error/seq_no").asInt()).isEqualTo(2);
        assertThat(trace.at("/error/message").asText()).isEqualTo("tool 'fail' failed: boom");
        assertThat(trace.at("/inputs/x").asText()).isEqualTo("in");
        JsonNode steps = trace.path("steps");
        assertThat(steps).hasSize(3);
        assertThat(steps.get(0).at("/inputs/parameters/chain_of_thoughts").asText())
                .isEqualTo("why");
        assertThat(steps.get(1).at("/inputs/params/text").asText()).isEqualTo("in");
        assertThat(steps.get(1).at("/writes/y").asText()).isEqualTo("in");
        assertThat(steps.get(1).path("duration_ms").isNumber()).isTrue();
        assertThat(steps.get(2).path("error").asText()).isEqualTo("tool 'fail' failed: boom");
    }

    @Test
    void an_llm_condition_explanation_is_kept_in_the_trace() {
        TestTools tools = new TestTools().answering(List.of(true));
        PlanVm vm = PlanVm.builder().conditionEvaluator(tools.conditions()).build();
        RunResult result = vm.run(load(vm, """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition_prompt": "Go?", "context": {"k": 1}, "jump_if_true": 2}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "no"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "yes"}}]"""), Map.of());
        JsonNode jmp = result.trace().path("steps").get(0);
        assertThat(jmp.at("/jump/to").asInt()).isEqualTo(2);
        assertThat(jmp.at("/jump/explanation").asText()).isEqualTo("scripted true");
        assertThat(jmp.at("/inputs/context/k").asInt()).isEqualTo(1);
        assertThat(result.finalAnswer().asText()).isEqualTo("yes");
    }
}
