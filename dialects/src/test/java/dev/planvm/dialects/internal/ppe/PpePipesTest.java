package dev.planvm.dialects.internal.ppe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.dialects.Compiled;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.DialectCompiler;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 004's pipes pass the result so far on, as a chain does: {@code $|print}, {@code $|echo}, {@code $|script},
 * and {@code $pipe} followed by the {@code $name} step it passes to; {@code toolId: $tool} calls that tool.
 */
class PpePipesTest {

    @Test
    void a_pipe_passes_the_result_to_print_and_echo() {
        RunResult result = run("- $echo: hi\n- $|print\n- $|echo\n");
        assertThat(result.variables().get("printed")).isEqualTo(TextNode.valueOf("hi"));
        assertThat(result.finalAnswer()).isEqualTo(TextNode.valueOf("hi"));
    }

    @Test
    void pipe_then_a_directive_step_passes_the_result_to_that_step() {
        RunResult result = run("- $echo: hi\n- $pipe\n- $print\n");
        assertThat(result.variables().get("printed")).isEqualTo(TextNode.valueOf("hi"));
    }

    @Test
    void a_pipe_to_a_name_chains_to_that_script_and_tool_id_tool_calls_the_tool() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile("- llm: $tool\n- $|summary\n", "p.ai.yaml");
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.plan().path("plan").findValuesAsText("tool_name")).containsExactly("llm_generate");
        assertThat(compiled.warnings())
                .singleElement()
                .satisfies(w ->
                        assertThat(w.format("p.ai.yaml")).contains("line 2").contains("'summary' is not found"));
    }

    @Test
    void pipe_without_a_step_to_pass_to_is_refused_with_its_line() {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile("- $echo: hi\n- $pipe\n", "p.ai.yaml");
        assertThat(compiled.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.format("p.ai.yaml"))
                        .contains("line 2")
                        .contains("$pipe passes the result to the next step"));
    }

    private static RunResult run(String script) {
        Compiled compiled = DialectCompiler.of(Dialect.PPE).compile(script, "p.ai.yaml");
        assertThat(compiled.errors()).isEmpty();
        PlanVm vm = PlanVm.builder().build();
        RunResult result = vm.run(compiled.load(vm.loader(), "p.ai.yaml").planOrThrow(), Map.of());
        assertThat(result.error()).isNull();
        return result;
    }
}
