package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunListener;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a listener and the trace are told of each step: how it went on (in order, or a jump), what
 * a tool step called, and why a jmp jumped.
 */
class StepRecordsTest {

    private final TestTools tools = new TestTools().answering(List.of(false));
    private final List<StepRecord> steps = new ArrayList<>();

    private RunResult run(String json) {
        PlanVm vm = PlanVm.builder()
                .tools(tools.tools())
                .conditionEvaluator(tools.conditions())
                .listener(new RunListener() {
                    @Override
                    public void stepFinished(StepRecord step) {
                        steps.add(step);
                    }
                })
                .build();
        Plan plan = vm.loader().load(json, "records.json").planOrThrow();
        return vm.run(plan, Map.of());
    }

    @Test
    void each_step_that_went_on_in_order_is_recorded_with_the_outcome_next() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"a": "x"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "text", "tool_params": {"text": "${a}"},
                   "output_vars": "b"}},
                 {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "text", "for_each": [1, 2],
                   "tool_params": {"text": "${item}"}, "output_vars": "c"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 5}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "skipped"}},
                 {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${b} ${c}"}}]""");

        assertThat(result.finalAnswer().asText()).isEqualTo("x [\"1\",\"2\"]");
        assertThat(steps).extracting(StepRecord::seqNo).containsExactly(0, 1, 2, 3, 5);
        assertThat(steps)
                .extracting(StepRecord::outcome)
                .containsExactly(Outcome.next(), Outcome.next(), Outcome.next(), Outcome.jumpTo(5), Outcome.next());
        assertThat(steps).extracting(StepRecord::jumpTo).containsExactly(null, null, null, 5, null);
    }

    @Test
    void a_tool_step_records_the_tool_its_params_and_its_output() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "hi"},
                   "output_vars": "final_answer"}}]""");

        JsonNode inputs = result.trace().at("/steps/0/inputs");
        assertThat(inputs.path("tool").asText()).isEqualTo("upper");
        assertThat(inputs.at("/params/text").asText()).isEqualTo("hi");
        assertThat(inputs.path("output").asText()).isEqualTo("HI");
        assertThat(steps.get(0).inputs()).isEqualTo(inputs);
    }

    @Test
    void a_jmp_on_a_local_condition_records_the_condition_and_why_it_jumped() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"n": 3}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${n > 2}", "jump_if_true": 3, "jump_if_false": 2}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "small"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "big"}}]""");

        assertThat(result.finalAnswer().asText()).isEqualTo("big");
        JsonNode jmp = result.trace().at("/steps/1");
        assertThat(jmp.at("/inputs/condition").asBoolean()).isTrue();
        assertThat(jmp.at("/jump/to").asInt()).isEqualTo(3);
        assertThat(jmp.at("/jump/explanation").asText()).isEqualTo("condition is true");
        assertThat(steps.get(1).explanation()).isEqualTo("condition is true");
    }

    @Test
    void a_jmp_on_an_llm_condition_records_the_prompt_it_asked_and_the_branch_it_took() {
        RunResult result = run("""
                [{"seq_no": 0, "type": "assign", "parameters": {"topic": "rain"}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Is ${topic} likely?",
                   "jump_if_true": 3, "jump_if_false": 2}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "no"}},
                 {"seq_no": 3, "type": "assign", "parameters": {"done": true}}]""");

        assertThat(result.finalAnswer().asText()).isEqualTo("no");
        assertThat(result.trace().at("/steps/1/inputs/condition_prompt").asText())
                .isEqualTo("Is rain likely?");
        assertThat(steps.get(1).explanation()).isEqualTo("scripted false");
        assertThat(steps.get(1).jumpTo()).isEqualTo(2);
    }
}
