package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TokenBudgetTest {

    private final AtomicInteger calls = new AtomicInteger();

    /** An LLM stand-in: every request spends 100 prompt and 20 completion tokens. */
    private Tool llm() {
        return Tool.of("llm", "spends tokens", (params, context) -> {
            calls.incrementAndGet();
            context.events().tokens(new TokenCount(100, 20));
            return TextNode.valueOf("answer to " + params.path("q").asText());
        });
    }

    private static final String THREE_CALLS = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {"q": "a"}, "output_vars": "a"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {"q": "${a}"}, "output_vars": "b"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {"q": "${b}"}, "output_vars": "final_answer"}}]""";

    private static Plan plan(PlanVm vm, String json) {
        return vm.loader().load(json, "tokens.json").planOrThrow();
    }

    @Test
    void every_step_records_the_tokens_its_calls_spent_and_the_trace_their_sum() {
        PlanVm vm = PlanVm.builder().tool(llm()).build();

        RunResult result = vm.run(plan(vm, THREE_CALLS), Map.of());

        assertThat(result.succeeded()).isTrue();
        JsonNode steps = result.trace().path("steps");
        assertThat(steps.get(0).at("/inputs/tokens")).isEqualTo(new TokenCount(100, 20).toJson());
        assertThat(steps.get(2).at("/inputs/tokens/completion").asLong()).isEqualTo(20);
        assertThat(result.trace().path("tokens")).isEqualTo(new TokenCount(300, 60).toJson());
    }

    @Test
    void a_run_fails_at_the_step_whose_call_spends_the_last_of_the_budget_and_calls_nothing_more() {
        PlanVm vm = PlanVm.builder().tool(llm()).maxTokens(200).build();

        RunResult result = vm.run(plan(vm, THREE_CALLS), Map.of());

        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().describe())
                .isEqualTo("seq_no 1 (calling): tool 'llm' failed: the token budget of 200 "
                        + "tokens (--max-tokens) is spent: 240 tokens (prompt 200, completion 40) used");
        assertThat(calls.get()).isEqualTo(2);
        assertThat(result.trace().path("tokens")).isEqualTo(new TokenCount(200, 40).toJson());
    }

    @Test
    void a_call_starting_when_the_budget_is_exactly_spent_is_refused_before_it_calls() {
        PlanVm vm = PlanVm.builder().tool(llm()).maxTokens(120).build();

        RunResult result = vm.run(plan(vm, THREE_CALLS), Map.of());

        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message()).contains("the token budget of 120 tokens (--max-tokens) is spent");
        assertThat(calls.get()).isEqualTo(1);
    }

    @Test
    void tokens_of_calls_started_ahead_of_their_turn_are_recorded_on_their_own_step() {
        PlanVm vm = PlanVm.builder().tool(llm()).build();
        Plan independent = plan(vm, """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {"q": "a"}, "output_vars": "a"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm", "tool_params": {"q": "b"}, "output_vars": "b"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${a} ${b}"}}]""");

        RunResult result = vm.run(independent, Map.of());

        assertThat(result.earlyCalls().started()).isEqualTo(1);
        assertThat(result.trace().at("/steps/1/inputs/tokens")).isEqualTo(new TokenCount(100, 20).toJson());
        assertThat(result.trace().at("/steps/2/inputs/tokens").isMissingNode()).isTrue();
    }

    @Test
    void a_replay_reports_the_recorded_tokens_so_the_budget_fails_the_same_step() {
        PlanVm recordVm = PlanVm.builder().tool(llm()).build();
        RunMode.Record record = RunMode.record();
        recordVm.run(plan(recordVm, THREE_CALLS), Map.of(), record);
        Cassette cassette = Cassette.fromJson(record.recording().cassette().toJson(), "c.json");
        assertThat(cassette.interactions()).extracting(Interaction::tokens).containsOnly(new TokenCount(100, 20));
        calls.set(0);

        PlanVm replayVm = PlanVm.builder().maxTokens(200).build();
        RunResult replayed = replayVm.run(plan(replayVm, THREE_CALLS), Map.of(), RunMode.replay(cassette, false));

        assertThat(replayed.error().seqNo()).isEqualTo(1);
        assertThat(replayed.error().message()).contains("240 tokens (prompt 200, completion 40) used");
        assertThat(calls.get()).isZero();
    }
}
