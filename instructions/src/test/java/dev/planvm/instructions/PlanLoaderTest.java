package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.expr.ValueTemplate;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanLoaderTest {

    private final PlanLoader loader = new PlanLoader();

    private static final String PLAN = """
            [
              {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${doubled}"}},
              {"seq_no": 0, "type": "assign", "parameters": {"number": 42, "doubled": "${number * 2}"},
               "execution_objective": "set the inputs"},
              {"seq_no": 1, "type": "reasoning", "parameters": {"chain_of_thoughts": "uses ${not_interpolated}"}}
            ]""";

    @Test
    void instructions_are_typed_and_sorted_by_seq_no() {
        Plan plan = loader.load(PLAN, "p.json").planOrThrow();
        assertThat(plan.instructions()).extracting(Instruction::seqNo).containsExactly(0, 1, 2);
        assertThat(plan.instructions()).extracting(Instruction::type).containsExactly("assign", "reasoning", "assign");
        assertThat(plan.positionOf(2)).isEqualTo(2);
        Assign first = (Assign) plan.instruction(0);
        assertThat(first.header().objective()).isEqualTo("set the inputs");
        assertThat(first.header().pointer()).isEqualTo("/1");
        assertThat(first.header().raw().path("parameters").path("number").asInt())
                .isEqualTo(42);
    }

    @Test
    void assign_keeps_its_keys_in_document_order() {
        Assign assign = (Assign) loader.load("""
                [{"seq_no": 0, "type": "assign", "parameters": {"z": 1, "a": "${z}", "m": 3, "final_answer": "${a}"}}]""", "p").planOrThrow().instruction(0);
        assertThat(assign.values().keySet()).containsExactly("z", "a", "m", "final_answer");
        assertThat(assign.values().get("z")).isInstanceOf(ValueTemplate.Constant.class);
        assertThat(assign.values().get("a")).isInstanceOf(ValueTemplate.StringTemplate.class);
    }

    @Test
    void reasoning_parameters_are_kept_raw_and_never_parsed() {
        Reasoning reasoning = (Reasoning) loader.load(PLAN, "p").planOrThrow().instruction(1);
        assertThat(reasoning.parameters().path("chain_of_thoughts").asText()).isEqualTo("uses ${not_interpolated}");
    }

    @Test
    void both_calling_spellings_load_to_the_same_instruction() {
        Calling modern = calling(
                "{\"tool_name\": \"vector_search\", \"tool_params\": {\"query\": \"${q}\"}, \"output_vars\": [\"docs\"]}");
        Calling spec = calling(
                "{\"tool\": \"vector_search\", \"params\": {\"query\": \"${q}\"}, \"output_vars\": [\"docs\"]}");
        assertThat(modern.tool()).isEqualTo(spec.tool()).isEqualTo("vector_search");
        assertThat(modern.params()).isEqualTo(spec.params());
        assertThat(modern.outputVars())
                .isEqualTo(spec.outputVars())
                .isEqualTo(new OutputVars.Keys(java.util.List.of("docs")));
    }

    @Test
    void output_vars_forms_are_typed() {
        assertThat(calling("{\"tool\": \"t\", \"output_vars\": \"answer\"}").outputVars())
                .isEqualTo(new OutputVars.Whole("answer"));
        assertThat(calling("{\"tool\": \"t\", \"output_vars\": [\"a\", \"b\"]}")
                        .outputVars()
                        .names())
                .containsExactly("a", "b");
        assertThat(calling("{\"tool\": \"t\"}").outputVars()).isInstanceOf(OutputVars.None.class);
        assertThat(calling("{\"tool\": \"t\"}").params())
                .isEqualTo(new ValueTemplate.Constant(new ObjectMapper().createObjectNode()));
    }

    @Test
    void jmp_kinds_are_typed_with_their_targets() {
        String plan = """
                [{"seq_no": 0, "type": "jmp", "parameters": {"target_seq": 3}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition_prompt": "Done?", "jump_if_true": 3}},
                 {"seq_no": 2, "type": "jmp", "parameters": {"condition": "${n < 3}", "jump_if_true": 1, "jump_if_false": 3}},
                 {"seq_no": 3, "type": "assign", "parameters": {"final_answer": "${n}"}}]""";
        Plan typed = loader.load(plan, "p").planOrThrow();
        Jmp unconditional = (Jmp) typed.instruction(0);
        Jmp llm = (Jmp) typed.instruction(1);
        Jmp local = (Jmp) typed.instruction(2);
        assertThat(unconditional.branch()).isEqualTo(new Jmp.Unconditional(3));
        assertThat(unconditional.mayFallThrough()).isFalse();
        assertThat(llm.branch()).isInstanceOfSatisfying(Jmp.LlmCondition.class, c -> {
            assertThat(c.ifTrue()).isEqualTo(3);
            assertThat(c.ifFalse()).isNull();
            assertThat(c.context()).isNull();
        });
        assertThat(llm.mayFallThrough()).isTrue();
        assertThat(local.jumpTargets()).containsExactly(1, 3);
        assertThat(local.mayFallThrough()).isFalse();
    }

    @Test
    void loads_from_a_file_a_stream_a_string_and_a_tree_alike(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("plan.json");
        Files.writeString(file, PLAN);
        LoadResult fromFile = loader.load(file);
        LoadResult fromStream = loader.load(new ByteArrayInputStream(PLAN.getBytes(StandardCharsets.UTF_8)), "s");
        LoadResult fromTree = loader.load(new ObjectMapper().readTree(PLAN), "t");
        assertThat(fromFile.source()).isEqualTo(file.toString());
        for (LoadResult result : java.util.List.of(fromFile, fromStream, fromTree)) {
            assertThat(result.plan().instructions())
                    .extracting(Instruction::seqNo)
                    .containsExactly(0, 1, 2);
        }
        assertThat(fromFile.plan().digest()).isEqualTo(fromTree.plan().digest()).hasSize(64);
    }

    @Test
    void a_wrapped_plan_reports_pointers_inside_the_wrapper() {
        LoadResult result = loader.load(
                "{\"goal\": \"g\", \"plan\": [{\"seq_no\": 0, \"type\": \"jmp\", \"parameters\": {\"target_seq\": 9}}]}",
                "w");
        assertThat(result.errors()).extracting(Diagnostic::pointer).containsExactly("/plan/0/parameters/target_seq");
    }

    @Test
    void an_invalid_plan_throws_with_every_error_when_asked_for_its_plan() {
        LoadResult result = loader.load(
                "[{\"seq_no\": 0, \"type\": \"nope\"}, {\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {}}]",
                "bad.json");
        assertThat(result.valid()).isFalse();
        assertThatThrownBy(result::planOrThrow)
                .isInstanceOf(InvalidPlanException.class)
                .hasMessageContaining("bad.json: seq_no 0 at /0/type: unknown instruction type 'nope'")
                .hasMessageContaining("bad.json: seq_no 0 at /1/seq_no: seq_no 0 is used twice");
    }

    @Test
    void a_missing_file_is_a_diagnostic_not_an_exception(@TempDir Path dir) {
        LoadResult result = loader.load(dir.resolve("absent.json"));
        assertThat(result.errors()).extracting(Diagnostic::message).containsExactly("file not found");
    }

    private Calling calling(String parameters) {
        String plan = "[{\"seq_no\": 0, \"type\": \"calling\", \"parameters\": " + parameters + "}]";
        return (Calling) loader.load(plan, "p").planOrThrow().instruction(0);
    }
}
