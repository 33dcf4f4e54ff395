package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.CallContext;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.StepFailure;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Tool permissions (seed 004): refused before the run when the tool name is static, at call time otherwise. */
class PermissionsTest {

    private static final String SEARCH_THEN_ANSWER = """
            [{"seq_no": 0, "type": "assign", "parameters": {"q": "tidb"}},
             {"seq_no": 1, "type": "calling", "parameters": {"tool_name": "vector_search", "tool_params": {"query": "${q}"},
               "output_vars": "docs"}},
             {"seq_no": 2, "type": "calling", "parameters": {"tool_name": "web_search", "tool_params": {"query": "${q}"},
               "output_vars": "pages"}},
             {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${docs} ${pages}"}}]""";

    private final AtomicInteger calls = new AtomicInteger();

    private Tool tool(String name) {
        return Tool.of(name, "", (p, c) -> {
            calls.incrementAndGet();
            return TextNode.valueOf(name);
        });
    }

    private PlanVm vm(ToolPolicy policy) {
        return PlanVm.builder()
                .tool(tool("vector_search"))
                .tool(tool("web_search"))
                .toolPolicy(policy)
                .build();
    }

    private static Plan load(PlanVm vm, String json) {
        return vm.loader().load(json, "plan.json").planOrThrow();
    }

    @Test
    void a_plan_calling_a_denied_tool_is_refused_before_anything_runs_naming_the_seq_no_and_the_rule() {
        PlanVm vm = vm(ToolPolicy.of(List.of(), List.of("web_*")));
        Plan plan = load(vm, SEARCH_THEN_ANSWER);
        assertThat(vm.problems(plan))
                .containsExactly("seq_no 2: tool 'web_search' is denied by the tool policy (deny rule 'web_*')");
        assertThatThrownBy(() -> vm.run(plan, Map.of())).isInstanceOf(PlanRejectedException.class);
        assertThat(calls).hasValue(0);
    }

    @Test
    void a_denied_tool_is_refused_in_a_dry_run_and_a_replay_too() throws Exception {
        PlanVm vm = vm(ToolPolicy.of(List.of("*search", "!web_search"), List.of()));
        Plan plan = load(vm, SEARCH_THEN_ANSWER);
        JsonNode cassette = new ObjectMapper().readTree("""
                {"format": "planvm-cassette/1", "interactions": [
                  {"type": "tool", "tool": "vector_search", "params": {"query": "tidb"}, "output": "d"},
                  {"type": "tool", "tool": "web_search", "params": {"query": "tidb"}, "output": "p"}]}""");
        String refusal = "seq_no 2: tool 'web_search' is denied by the tool policy (deny rule '!web_search')";
        assertThat(vm.problems(plan, RunMode.dryRun(false))).containsExactly(refusal);
        assertThat(vm.problems(plan, RunMode.replay(Cassette.fromJson(cassette, "c"), false)))
                .containsExactly(refusal);
    }

    @Test
    void a_denied_tool_that_is_not_installed_either_is_reported_once_as_denied() {
        PlanVm vm = PlanVm.builder()
                .tool(tool("vector_search"))
                .toolPolicy(ToolPolicy.of(List.of("vector_*"), List.of()))
                .build();
        assertThat(vm.problems(load(vm, SEARCH_THEN_ANSWER)))
                .containsExactly("seq_no 2: tool 'web_search' is denied by the "
                        + "tool policy (no allow rule matches it; allowed: vector_*)");
    }

    @Test
    void a_plan_calling_only_allowed_tools_runs() {
        PlanVm vm = vm(ToolPolicy.of(List.of("*_search"), List.of("shell*")));
        RunResult result = vm.run(load(vm, SEARCH_THEN_ANSWER), Map.of());
        assertThat(result.succeeded()).as(String.valueOf(result.error())).isTrue();
        assertThat(result.finalAnswer().asText()).isEqualTo("vector_search web_search");
    }

    @Test
    void a_custom_instruction_calling_a_denied_tool_fails_at_call_time_with_the_rule() {
        PlanVm vm = PlanVm.builder()
                .tool(tool("web_search"))
                .toolPolicy(ToolPolicy.of(List.of(), List.of("web_*")))
                .handler("fetch", (instruction, step) -> {
                    JsonNode params = step.interpolate(instruction.parameters());
                    try {
                        step.set(
                                "page",
                                step.call(new Call.ToolCall(
                                        params.path("tool").asText(), params, CallContext.of(step.seqNo()))));
                    } catch (ToolException e) {
                        throw new StepFailure(e.getMessage(), e);
                    }
                    return Outcome.next();
                })
                .build();
        Plan plan = load(vm, """
                [{"seq_no": 0, "type": "assign", "parameters": {"t": "web_search"}},
                 {"seq_no": 1, "type": "fetch", "parameters": {"tool": "${t}"}}]""");
        assertThat(vm.problems(plan)).isEmpty();
        RunResult result = vm.run(plan, Map.of());
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().seqNo()).isEqualTo(1);
        assertThat(result.error().message())
                .isEqualTo("tool 'web_search' is denied by the tool policy (deny rule 'web_*')");
        assertThat(calls).hasValue(0);
    }
}
