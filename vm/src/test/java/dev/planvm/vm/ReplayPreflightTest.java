package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In a replay, a tool the cassette does not answer is a problem only when the run actually calls
 * it (a cassette miss); before the run it is at most a warning, so planvm replays its own
 * recordings of branching plans.
 */
class ReplayPreflightTest {

    private static final String BRANCHING = """
            [{"seq_no": 0, "type": "jmp", "parameters": {"condition": "${deep}", "jump_if_true": 3}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "quick"}, "output_vars": "final_answer"}},
             {"seq_no": 2, "type": "jmp", "parameters": {"target_seq": 5}},
             {"seq_no": 3, "type": "calling", "parameters": {"tool_name": "text", "tool_params": {"text": "deep"}, "output_vars": "answer"}},
             {"seq_no": 4, "type": "jmp", "parameters": {"condition_prompt": "Deep enough?", "jump_if_true": 5}},
             {"seq_no": 5, "type": "reasoning", "parameters": {}}]""";

    private final TestTools live = new TestTools();
    private final PlanVm recorder = PlanVm.builder()
            .tools(live.tools())
            .conditionEvaluator(live.conditions())
            .build();
    private final PlanVm bare =
            PlanVm.builder().llmUnavailable("set OPENAI_API_KEY").build();
    private final Plan plan =
            recorder.loader().load(BRANCHING, "branching.json").planOrThrow();

    /** The cassette of a run that took the quick branch: it has 'upper' and no 'text', no condition. */
    private Cassette quickRecording() {
        RunMode.Record record = RunMode.record();
        RunResult recorded = recorder.run(plan, Map.of("deep", BooleanNode.FALSE), record);
        assertThat(recorded.succeeded()).isTrue();
        return record.recording().cassette();
    }

    @Test
    void a_recording_of_a_branching_plan_replays_although_the_branch_not_taken_calls_a_tool_it_lacks() {
        Cassette cassette = quickRecording();
        assertThat(cassette.tools()).containsExactly("upper");

        RunMode replay = RunMode.replay(cassette, false);
        assertThat(bare.problems(plan, replay)).isEmpty();
        RunResult replayed = bare.run(plan, Map.of("deep", BooleanNode.FALSE), replay);

        assertThat(replayed.succeeded()).as(String.valueOf(replayed.error())).isTrue();
        assertThat(replayed.finalAnswer().asText()).isEqualTo("QUICK");
        assertThat(replayed.warnings())
                .containsExactly(
                        "seq_no 3: tool 'text' is not in the cassette: a call to it fails as a cassette miss",
                        "seq_no 4: the cassette has no condition answers: this condition_prompt fails if it is reached");
    }

    @Test
    void warnings_say_which_calls_the_cassette_does_not_cover_with_their_location() {
        List<Diagnostic> warnings = bare.warnings(plan, RunMode.replay(quickRecording(), false));
        assertThat(warnings).extracting(Diagnostic::seqNo).containsExactly(3, 4);
        assertThat(warnings).extracting(Diagnostic::pointer).containsExactly("/3", "/4");
        assertThat(warnings).allMatch(w -> !w.isError());
        assertThat(bare.warnings(plan, RunMode.live())).isEmpty();
        assertThat(bare.warnings(plan, RunMode.dryRun(false))).isEmpty();
    }

    @Test
    void a_call_actually_made_to_a_tool_the_cassette_lacks_fails_the_step_as_a_cassette_miss() {
        RunResult replayed = bare.run(plan, Map.of("deep", BooleanNode.TRUE), RunMode.replay(quickRecording(), false));

        assertThat(replayed.succeeded()).isFalse();
        assertThat(replayed.error().describe())
                .startsWith(
                        "seq_no 3 (calling): tool 'text' failed: the cassette has no recorded interaction for tool 'text'");
    }

    @Test
    void the_tool_policy_still_refuses_a_denied_tool_in_a_replay_before_anything_runs() {
        PlanVm denying = PlanVm.builder()
                .toolPolicy(ToolPolicy.of(List.of(), List.of("text")))
                .build();
        assertThat(denying.problems(plan, RunMode.replay(quickRecording(), false)))
                .singleElement()
                .asString()
                .startsWith("seq_no 3: tool 'text' is denied");
    }

    @Test
    void a_live_run_still_refuses_a_tool_that_is_not_installed() {
        assertThat(bare.problems(plan, RunMode.live()))
                .contains(
                        "seq_no 1: tool 'upper' is not installed (no tools are installed)",
                        "seq_no 3: tool 'text' is not installed (no tools are installed)");
    }

    @Test
    void warnings_of_a_run_from_a_later_position_cover_only_what_can_still_run() {
        Cassette cassette = quickRecording();
        List<Diagnostic> fromQuick = bare.warnings(plan, RunMode.replay(cassette, false), plan.positionOf(1));
        assertThat(fromQuick).isEmpty();
        List<Diagnostic> fromDeep = bare.warnings(plan, RunMode.replay(cassette, false), plan.positionOf(3));
        assertThat(fromDeep).extracting(Diagnostic::seqNo).containsExactly(3, 4);
    }
}
