package dev.planvm.vm.plantools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.PlanVmBuilder;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Plans that call plans: a plan that names itself is a tool other plans call (issue 23). */
class PlanToolTest {

    private static final String SHOUT = """
            {"name": "shout", "description": "Upper-cases a text and adds a mark",
             "inputs": {"type": "object", "properties": {"text": {"type": "string"}, "mark": {"type": "string", "default": "!"}},
                        "required": ["text"]},
             "output": {"type": "string"},
             "plan": [
               {"seq_no": 0, "type": "calling", "parameters": {"tool_name": "upper", "tool_params": {"text": "${text}"}, "output_vars": ["up"]}},
               {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${up}${mark}"}}]}""";

    private final AtomicInteger upperCalls = new AtomicInteger();

    private static Plan plan(String json) {
        return new PlanLoader().load(json, "t.json").planOrThrow();
    }

    private PlanVmBuilder vm() {
        return PlanVm.builder()
                .tool(Tool.of("upper", "upper-cases text", (params, call) -> {
                    upperCalls.incrementAndGet();
                    return TextNode.valueOf(params.path("text").asText().toUpperCase());
                }))
                .tool(Tool.of("fail", "always fails", (params, call) -> {
                    throw new IllegalStateException("boom");
                }));
    }

    private static String parent(String toolParams) {
        return """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": %s, "output_vars": ["a"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a}"}}]""".formatted(toolParams);
    }

    @Test
    void a_plan_calls_a_plan_tool_whose_final_answer_is_the_output_and_an_absent_input_gets_its_default() {
        try (PlanVm vm = vm().planTool(plan(SHOUT)).build()) {
            RunResult result =
                    vm.run(plan(parent("{\"text\": \"hi ${who}\"}")), Map.of("who", TextNode.valueOf("ann")));
            assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
            assertThat(result.finalAnswer().asText()).isEqualTo("HI ANN!");
            assertThat(vm.tools().find("shout"))
                    .get()
                    .extracting(Tool::description)
                    .isEqualTo("Upper-cases a text and adds a mark");
        }
    }

    @Test
    void params_that_do_not_fit_the_inputs_are_refused_before_the_child_starts() {
        try (PlanVm vm = vm().planTool(plan(SHOUT)).build()) {
            assertThatThrownBy(() -> vm.run(plan(parent("{\"mark\": 3}")), Map.of()))
                    .as("written out, they are refused before the run starts")
                    .isInstanceOf(PlanRejectedException.class)
                    .hasMessageContaining("seq_no 0 at /0/parameters: params do not fit the schema of tool 'shout'")
                    .hasMessageContaining("text");
            RunResult result = vm.run(
                    plan(parent("{\"text\": \"${t}\", \"mark\": \"${m}\"}")),
                    Map.of("t", TextNode.valueOf("x"), "m", com.fasterxml.jackson.databind.node.IntNode.valueOf(3)));
            assertThat(result.succeeded()).as("with references, at the call").isFalse();
            assertThat(result.error().seqNo()).isZero();
            assertThat(result.error().message())
                    .contains("params do not fit the schema of tool 'shout'")
                    .contains("mark");
            assertThat(upperCalls).hasValue(0);
        }
    }

    @Test
    void a_failing_child_names_its_own_seq_no_and_a_final_answer_outside_the_output_schema_fails_the_call() {
        String failing = """
                {"name": "broken", "inputs": {"type": "object"}, "plan": [
                  {"seq_no": 0, "type": "assign", "parameters": {"x": 1}},
                  {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "fail", "tool_params": {}, "output_vars": ["y"]}},
                  {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${y}"}}]}""";
        String wrongOutput = """
                {"name": "number", "inputs": {"type": "object"}, "output": {"type": "number"}, "plan": [
                  {"seq_no": 0, "type": "assign", "parameters": {"final_answer": "not a number"}}]}""";
        try (PlanVm vm =
                vm().planTool(plan(failing)).planTool(plan(wrongOutput)).build()) {
            RunResult broken = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "broken", "tool_params": {}, "output_vars": ["a"]}}]"""), Map.of());
            assertThat(broken.error().message())
                    .contains("plan tool 'broken' failed at its seq_no 1 (calling)")
                    .contains("boom");
            RunResult number = vm.run(plan("""
                    [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "number", "tool_params": {}, "output_vars": ["a"]}}]"""), Map.of());
            assertThat(number.error().message()).contains("does not fit its output schema");
        }
    }

    private static String caller(String tool) {
        return """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "%s", "tool_params": {"text": "x"}, "output_vars": ["a"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${a}"}}]""".formatted(tool);
    }

    @Test
    void a_plan_tool_that_reaches_itself_cannot_be_used_and_so_is_a_chain_deeper_than_the_limit_the_others_can() {
        String a = """
                {"name": "a", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "b", "tool_params": {}, "output_vars": ["x"]}}]}""";
        String b = """
                {"name": "b", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "a", "tool_params": {}, "output_vars": ["x"]}}]}""";
        String self = """
                {"name": "self", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "self", "tool_params": {}, "output_vars": ["x"]}}]}""";
        String above = """
                {"name": "above", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "a", "tool_params": {}, "output_vars": ["x"]}}]}""";
        try (PlanVm vm = vm().planTool(plan(a))
                .planTool(plan(b))
                .planTool(plan(self))
                .planTool(plan(above))
                .planTool(plan(SHOUT))
                .build()) {
            assertThat(vm.unusablePlanTools())
                    .containsEntry("a", "it calls itself through a → b → a: a plan tool may not reach itself")
                    .containsEntry("b", "it calls itself through b → a → b: a plan tool may not reach itself")
                    .containsEntry("self", "it calls itself: a plan tool may not reach itself")
                    .containsEntry(
                            "above",
                            "it calls plan tool 'a', which cannot be used: it calls itself through a → b → a: a plan"
                                    + " tool may not reach itself")
                    .doesNotContainKey("shout");
            assertThatThrownBy(() -> vm.run(plan(caller("above")), Map.of()))
                    .isInstanceOf(PlanRejectedException.class)
                    .hasMessage("seq_no 0 at /0/parameters: plan tool 'above' cannot be used: it calls plan tool 'a',"
                            + " which cannot be used: it calls itself through a → b → a: a plan tool may not reach"
                            + " itself");
            assertThat(vm.refusals(plan(caller("self"))))
                    .singleElement()
                    .satisfies(d -> assertThat(d.message()).startsWith("plan tool 'self' cannot be used: it calls"));
            assertThat(vm.run(plan(caller("shout")), Map.of()).finalAnswer().asText())
                    .as("a plan that reaches none of them runs")
                    .isEqualTo("X!");
        }
        String outer = """
                {"name": "outer", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "shout", "tool_params": {"text": "x"}, "output_vars": ["x"]}}]}""";
        try (PlanVm ok =
                vm().planTool(plan(SHOUT)).planTool(plan(outer)).maxPlanDepth(1).build()) {
            assertThat(ok.tools().find("outer")).isPresent();
        }
        try (PlanVm shallow =
                vm().planTool(plan(SHOUT)).planTool(plan(outer)).maxPlanDepth(0).build()) {
            assertThat(shallow.unusablePlanTools())
                    .containsOnlyKeys("outer")
                    .containsEntry(
                            "outer", "it calls plan tools 1 deep (outer → shout); the limit is 0 (--max-plan-depth)");
            assertThat(shallow.tools().find("shout")).isPresent();
        }
    }

    @Test
    void the_vms_tool_policy_binds_the_child_a_denied_tool_stays_denied() {
        try (PlanVm vm = vm().planTool(plan(SHOUT))
                .toolPolicy(ToolPolicy.of(List.of(), List.of("upper")))
                .build()) {
            RunResult result = vm.run(plan(parent("{\"text\": \"x\"}")), Map.of());
            assertThat(result.succeeded()).isFalse();
            assertThat(result.error().message())
                    .contains("plan tool 'shout' cannot run here: seq_no 0: tool 'upper' is denied")
                    .contains("upper");
            assertThat(upperCalls).hasValue(0);
        }
    }

    @Test
    void a_recorded_parent_replays_offline_with_no_plan_tool_installed() {
        Cassette cassette;
        try (PlanVm vm = vm().planTool(plan(SHOUT)).build()) {
            RunMode.Record record = RunMode.record();
            RunResult recorded = vm.run(plan(parent("{\"text\": \"hi\"}")), Map.of(), record);
            assertThat(recorded.finalAnswer().asText()).isEqualTo("HI!");
            cassette = record.recording().cassette();
        }
        try (PlanVm bare = PlanVm.builder().build()) {
            RunResult replayed =
                    bare.run(plan(parent("{\"text\": \"hi\"}")), Map.of(), RunMode.replay(cassette, false));
            assertThat(replayed.succeeded())
                    .as(String.valueOf(replayed.error()))
                    .isTrue();
            assertThat(replayed.finalAnswer().asText()).isEqualTo("HI!");
        }
    }

    @Test
    void a_directory_of_plan_tools_loads_and_a_file_that_does_not_name_itself_is_refused(@TempDir Path dir)
            throws Exception {
        Files.writeString(dir.resolve("shout.json"), SHOUT);
        Files.writeString(dir.resolve("shout.cassette.json"), "{}");
        try (PlanVm vm = vm().planTools(dir).build()) {
            assertThat(vm.run(plan(parent("{\"text\": \"a\"}")), Map.of())
                            .finalAnswer()
                            .asText())
                    .isEqualTo("A!");
        }
        Files.writeString(dir.resolve("anonymous.json"), """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": 1}}]""");
        Files.writeString(dir.resolve("broken.json"), """
                {"name": "broken", "plan": [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 7}}]}""");
        Files.writeString(dir.resolve("loud.json"), """
                {"name": "loud", "plan": [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "broken", "tool_params": {}, "output_vars": ["x"]}},
                  {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${x}"}}]}""");
        try (PlanVm vm = vm().planTools(dir).build()) {
            assertThat(vm.unusablePlanTools()).containsOnlyKeys("broken", "loud");
            assertThat(vm.unnamedPlanTools())
                    .singleElement()
                    .asString()
                    .contains("anonymous.json: a plan tool names itself");
            assertThat(vm.unusablePlanTools().get("broken"))
                    .contains("broken.json: seq_no 0 at /plan/0/parameters/target_seq: jump target 7");
            assertThat(vm.run(plan(parent("{\"text\": \"b\"}")), Map.of())
                            .finalAnswer()
                            .asText())
                    .as("a plan that does not reach the broken files runs")
                    .isEqualTo("B!");
            assertThat(vm.refusals(plan(caller("loud"))))
                    .singleElement()
                    .satisfies(d -> assertThat(d.message())
                            .startsWith("plan tool 'loud' cannot be used: it calls plan tool 'broken', which cannot be"
                                    + " used: " + dir.resolve("broken.json")));
        }
        assertThatThrownBy(() -> vm().planTools(dir.resolve("missing")).build())
                .isInstanceOf(PlanToolsException.class)
                .hasMessageContaining("missing: not a directory of plan tools");
    }

    @Test
    void the_header_is_checked_and_declared_inputs_make_an_unknown_read_an_error() {
        LoadResult bad = new PlanLoader().load("""
                {"name": "no spaces allowed", "inputs": {"type": "array"}, "plan": [
                  {"seq_no": 0, "type": "assign", "parameters": {"final_answer": 1}}]}""", "t.json");
        assertThat(bad.errors()).extracting(e -> e.pointer()).containsExactly("/name", "/inputs/type");
        LoadResult undeclared = new PlanLoader().load("""
                {"name": "t", "inputs": {"type": "object", "properties": {"topic": {"type": "string"}}}, "plan": [
                  {"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${topic} ${tone}"}}]}""", "t.json");
        assertThat(undeclared.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.message())
                        .contains("'tone', which no instruction assigns and the plan's inputs (topic) do not name"));
        JsonNode inputs = plan(SHOUT).signature().orElseThrow().inputs();
        assertThat(inputs.path("required").get(0).asText()).isEqualTo("text");
    }
}
