package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordReplayTest {

    private static final String PLAN = """
            [{"seq_no": 0, "type": "assign", "parameters": {"n": 0, "acc": ""}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "counter", "output_vars": "c"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "x${c}"}, "output_vars": "u"}},
             {"seq_no": 3, "type": "assign", "parameters": {"n": "${n + 1}", "acc": "${acc + u}"}},
             {"seq_no": 4, "type": "jmp", "parameters": {"condition_prompt": "Again after ${acc}?", "jump_if_true": 1, "jump_if_false": 5}},
             {"seq_no": 5, "type": "assign", "parameters": {"final_answer": "${acc}"}}]""";

    @Test
    void a_recorded_run_replays_to_the_same_answer_and_trace_shape_without_any_tool() {
        TestTools live = new TestTools().answering(List.of(true, false));
        PlanVm liveVm = PlanVm.builder()
                .tools(live.tools())
                .conditionEvaluator(live.conditions())
                .build();
        Plan plan = liveVm.loader().load(PLAN, "p").planOrThrow();
        RunMode.Record recording = RunMode.record();
        RunResult recorded = liveVm.run(plan, Map.of(), recording);
        assertThat(recorded.finalAnswer().asText()).isEqualTo("X1X2");
        Cassette cassette = recording.recording().cassette();
        assertThat(cassette.interactions()).hasSize(6);

        PlanVm bare = PlanVm.builder().build();
        RunResult replayed = bare.run(plan, Map.of(), RunMode.replay(cassette, false));

        assertThat(replayed.finalAnswer()).isEqualTo(recorded.finalAnswer());
        assertThat(shape(replayed.trace())).isEqualTo(shape(recorded.trace()));
        assertThat(replayed.trace().path("mode").asText()).isEqualTo("replay");
        assertThat(recorded.trace().path("mode").asText()).isEqualTo("record");
    }

    @Test
    void a_failed_run_still_returns_what_it_recorded_its_failed_call_included() {
        TestTools live = new TestTools();
        PlanVm vm = PlanVm.builder().tools(live.tools()).build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "counter", "output_vars": "c"}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {"message": "down"}}}]""", "p").planOrThrow();
        RunMode.Record recording = RunMode.record();
        RunResult result = vm.run(plan, Map.of(), recording);
        assertThat(result.succeeded()).isFalse();
        assertThat(recording.recording().cassette().interactions())
                .extracting(i -> ((dev.planvm.tools.cassette.Interaction.ToolInteraction) i).error())
                .containsExactlyInAnyOrder(null, "down");
        RunResult replayed = PlanVm.builder()
                .tools(new TestTools().tools())
                .build()
                .run(plan, Map.of(), RunMode.replay(recording.recording().cassette(), false));
        assertThat(replayed.succeeded()).isFalse();
        assertThat(replayed.error().message()).isEqualTo(result.error().message());
    }

    @Test
    void a_replayed_call_that_was_not_recorded_fails_the_step_with_the_closest_recording() {
        TestTools live = new TestTools();
        PlanVm vm = PlanVm.builder().tools(live.tools()).build();
        Plan recordedPlan = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "a"}, "output_vars": "final_answer"}}]""", "p").planOrThrow();
        RunMode.Record recording = RunMode.record();
        vm.run(recordedPlan, Map.of(), recording);
        Cassette cassette = recording.recording().cassette();
        Plan changed = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "b"}, "output_vars": "final_answer"}}]""", "p").planOrThrow();
        RunResult result = PlanVm.builder().build().run(changed, Map.of(), RunMode.replay(cassette, false));
        assertThat(result.error().describe())
                .startsWith("seq_no 0 (calling): tool 'upper' failed: the cassette has no recorded")
                .contains("/params/text: recorded \"a\", got \"b\"");
    }

    @Test
    void replay_needs_neither_tools_nor_an_llm_and_a_call_missing_from_the_cassette_fails_when_made() {
        Cassette empty = new Cassette(List.of());
        PlanVm bare = PlanVm.builder().llmUnavailable("set OPENAI_API_KEY").build();
        Plan plan = bare.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "hi"}, "output_vars": "x"}}]""", "p").planOrThrow();
        RunResult replayed = bare.run(plan, Map.of(), RunMode.replay(empty, false));
        assertThat(replayed.error().describe())
                .startsWith("seq_no 0 (calling): tool 'llm_generate' failed: the cassette has no "
                        + "recorded interaction for tool 'llm_generate'");
        assertThat(replayed.warnings())
                .containsExactly(
                        "seq_no 0: tool 'llm_generate' is not in the cassette: a call to it fails as a cassette miss");
        assertThatThrownBy(() -> bare.run(plan, Map.of()))
                .hasMessage("seq_no 0: tool 'llm_generate' is not installed (set OPENAI_API_KEY)");
    }

    @Test
    void a_dry_run_calls_nothing_follows_the_control_flow_and_marks_placeholders() {
        TestTools live = new TestTools();
        PlanVm vm = PlanVm.builder().tools(live.tools()).build();
        Plan plan = vm.loader().load("""
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "q"}, "output_vars": ["docs"]}},
                 {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "llm_generate", "tool_params": {"prompt": "${docs}"}, "output_vars": ["summary", "insights"]}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition_prompt": "Good?", "jump_if_true": 4}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "not good: ${summary}"}},
                 {"seq_no": 4, "type": "reasoning", "parameters": {}}]""", "p").planOrThrow();
        RunResult result = vm.run(plan, Map.of(), RunMode.dryRun(false));
        assertThat(result.succeeded()).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("not good: <dry-run seq_no 1 llm_generate.summary>");
        assertThat(result.variables().get("docs")).isEqualTo(TextNode.valueOf("<dry-run seq_no 0 vector_search>"));
        assertThat(live.calls).isEmpty();
        JsonNode steps = result.trace().path("steps");
        assertThat(result.trace().path("mode").asText()).isEqualTo("dry-run");
        assertThat(steps.get(0).at("/inputs/placeholder").asBoolean()).isTrue();
        assertThat(steps.get(2).at("/inputs/placeholder").asBoolean()).isTrue();
        assertThat(steps.get(3).at("/inputs/placeholder").isMissingNode()).isTrue();
        RunResult yes = vm.run(plan, Map.of(), RunMode.dryRun(true));
        assertThat(yes.finalAnswer().isNull()).isTrue();
        assertThat(yes.steps()).isEqualTo(4);
    }

    /** Step seq_nos, types and written variable names: what must not change between record and replay. */
    private static List<String> shape(JsonNode trace) {
        List<String> shape = new ArrayList<>();
        for (JsonNode step : trace.path("steps")) {
            List<String> writes = new ArrayList<>();
            step.path("writes").fieldNames().forEachRemaining(writes::add);
            shape.add(step.path("seq_no").asInt() + " " + step.path("type").asText() + " " + writes + " -> "
                    + step.at("/jump/to").asText("next"));
        }
        return shape;
    }
}
