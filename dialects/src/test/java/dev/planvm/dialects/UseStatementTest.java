package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Seed 001's note on use vs return: {@code use EXPR;} in place of {@code return EXPR;} hands the value back to
 * the LLM that wrote the plan. It compiles to {@code final_answer} and then the variable {@code use} set to
 * {@code true}; the run's result is marked ({@link RunResult#handsBack()}, {@code "use": true} in the trace).
 */
class UseStatementTest {

    private final PlanVm vm = PlanVm.builder().build();

    private Compiled compile(String source) {
        return DialectCompiler.forFile("plan.js").compile(source, "plan.js");
    }

    private RunResult run(String source) {
        LoadResult loaded = compile(source).load(vm.loader(), "plan.js");
        return vm.run(loaded.planOrThrow(), Map.of());
    }

    @Test
    void use_compiles_to_the_result_and_then_the_use_mark() {
        JsonNode plan = compile("""
                docs = ['a', 'b'];
                use docs;
                """).plan();
        JsonNode last = plan.get(plan.size() - 1);
        assertThat(last.path("type").asText()).isEqualTo("assign");
        assertThat(last.path("parameters")).hasToString("{\"use\":true}");
        assertThat(plan.get(plan.size() - 2).path("parameters").has("final_answer"))
                .isTrue();
    }

    @Test
    void a_run_ending_in_use_hands_its_value_back_and_its_trace_says_so() {
        RunResult used = run("use {n: 1};");
        assertThat(used.succeeded()).isTrue();
        assertThat(used.finalAnswer()).hasToString("{\"n\":1}");
        assertThat(used.handsBack()).isTrue();
        assertThat(used.trace().path("use").asBoolean()).isTrue();

        RunResult returned = run("return {n: 1};");
        assertThat(returned.handsBack()).isFalse();
        assertThat(returned.trace().has("use")).isFalse();
    }

    @Test
    void an_alias_named_use_is_an_alias_and_never_the_mark() {
        Compiled compiled = compile("""
                use = true;
                return use;
                """);
        assertThat(compiled.errors()).isEmpty();
        assertThat(compiled.planText()).contains("use_alias").doesNotContain("\"use\" :");
        RunResult result = run("""
                use = true;
                return use;
                """);
        assertThat(result.finalAnswer().asBoolean()).isTrue();
        assertThat(result.handsBack()).isFalse();
    }

    @Test
    void use_is_the_last_statement_and_needs_a_value() {
        assertThat(compile("use;").errors())
                .extracting(d -> d.message())
                .containsExactly("line 1, column 1: 'use' needs a value: use <expression>;");
        assertThat(compile("use 1;\nreturn 2;").errors())
                .extracting(d -> d.message())
                .containsExactly("line 2, column 1: nothing may follow the 'use' statement (a plan has one return or"
                        + " use, at its end)");
    }

    @Test
    void a_stackvm_plan_marks_its_run_only_with_use_true() {
        String plan = "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": 1, \"use\": %s}}]";
        RunResult marked =
                vm.run(vm.loader().load(plan.formatted("true"), "p.json").planOrThrow(), Map.of());
        assertThat(marked.handsBack()).isTrue();
        LoadResult text = vm.loader().load(plan.formatted("\"yes\""), "p.json");
        assertThat(text.diagnostics())
                .anySatisfy(d -> assertThat(d.format("p.json"))
                        .isEqualTo("warning: p.json: seq_no 0 at /0/parameters/use: 'use' is planvm's mark for handing"
                                + " final_answer back to the LLM that wrote the plan (seed 001's use): true marks the"
                                + " run, and this value does not; to hand a value back, assign it to final_answer and"
                                + " set use to true"));
        assertThat(vm.run(text.planOrThrow(), Map.of()).handsBack()).isFalse();
    }
}
