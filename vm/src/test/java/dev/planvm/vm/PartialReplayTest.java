package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A partial replay ({@code --live TOOLS}): the named tools run for real, every other call is
 * answered from the cassette — so a plan's LLM answers stay pinned while retrieval is exercised live.
 */
class PartialReplayTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "counter", "tool_params": {}, "output_vars": "n"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "n=${n}"}, "output_vars": "final_answer"}}]""";

    private final Plan plan =
            PlanVm.builder().build().loader().load(PLAN, "partial.json").planOrThrow();

    private Cassette recording() {
        RunMode.Record record = RunMode.record();
        RunResult recorded =
                PlanVm.builder().tools(new TestTools().tools()).build().run(plan, Map.of(), record);
        assertThat(recorded.finalAnswer().asText()).isEqualTo("N=1");
        return record.recording().cassette();
    }

    @Test
    void a_live_tool_is_called_for_real_and_the_others_are_answered_from_the_cassette() {
        Cassette cassette = recording();
        TestTools replayTools = new TestTools();
        PlanVm vm = PlanVm.builder().tools(replayTools.tools()).build();

        RunResult replayed = vm.run(plan, Map.of(), RunMode.replay(cassette, false, Set.of("counter")));

        assertThat(replayed.succeeded()).as(String.valueOf(replayed.error())).isTrue();
        assertThat(replayTools.calls).containsOnlyKeys("counter"); // 'upper' came from the cassette
        assertThat(replayed.finalAnswer().asText()).isEqualTo("N=1");
    }

    @Test
    void what_the_live_tool_answers_flows_on_to_the_replayed_calls() {
        Cassette cassette = recording();
        TestTools replayTools = new TestTools();
        PlanVm vm = PlanVm.builder().tools(replayTools.tools()).build();
        vm.run(plan, Map.of(), RunMode.live()); // the real counter now stands at 1: its next answer is 2

        RunResult replayed = vm.run(plan, Map.of(), RunMode.replay(cassette, false, Set.of("counter")));

        assertThat(replayed.succeeded()).isFalse();
        assertThat(replayed.error().describe()).contains("seq_no 1", "tool 'upper'", "n=2");
    }

    @Test
    void without_the_live_tool_installed_the_partial_replay_is_refused_before_anything_runs() {
        PlanVm bare = PlanVm.builder().build();
        RunMode partial = RunMode.replay(recording(), false, Set.of("counter"));
        assertThat(bare.problems(plan, partial))
                .singleElement()
                .asString()
                .startsWith("seq_no 0: tool 'counter' is not installed");
        assertThat(bare.problems(plan, RunMode.replay(recording(), false))).isEmpty();
    }

    @Test
    void a_live_tool_absent_from_the_cassette_draws_no_warning() {
        Cassette withoutCounter = recording();
        PlanVm vm = PlanVm.builder().tools(new TestTools().tools()).build();
        assertThat(vm.warnings(plan, RunMode.replay(withoutCounter, false, Set.of("counter", "upper"))))
                .isEmpty();
    }
}
