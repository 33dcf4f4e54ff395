package dev.planvm.instructions;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Validation warns on a read that some path from the start reaches before any assignment (issue 24). */
class DefUseTest {

    private static final String MAY_BE_UNASSIGNED = "not assigned on every path";

    private static List<Diagnostic> warnings(PlanLoader loader, String plan) {
        LoadResult result = loader.load(plan, "t.json");
        assertThat(result.errors()).isEmpty();
        return result.warnings();
    }

    private static List<Diagnostic> defUse(List<Diagnostic> warnings) {
        return warnings.stream()
                .filter(w ->
                        w.message().contains(MAY_BE_UNASSIGNED) || w.message().contains("before this"))
                .toList();
    }

    @Test
    void a_read_that_a_conditional_jump_skips_the_assignment_of_is_warned_with_the_seq_no_variable_and_a_path() {
        String plan = """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition": "${flag}", "jump_if_true": 2, "jump_if_false": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"x": "set"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x}"}}]""";
        List<Diagnostic> found = defUse(warnings(new PlanLoader(), plan));
        assertThat(found).hasSize(1);
        Diagnostic warning = found.get(0);
        assertThat(warning.seqNo()).isEqualTo(2);
        assertThat(warning.pointer()).isEqualTo("/2/parameters/final_answer");
        assertThat(warning.message())
                .contains("${x} reads 'x'")
                .contains("the path 0 → 2 reaches it unassigned")
                .contains("seq_no 1 assigns it");
    }

    @Test
    void a_read_every_path_assigns_first_raises_nothing_even_through_a_loop() {
        String plan = """
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0, "x": "a"}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${i < 3}", "jump_if_true": 2, "jump_if_false": 4}},
                 {"seq_no": 2, "type": "assign", "parameters": {"i": "${i + 1}", "y": "${x}"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 1}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${x}"}}]""";
        assertThat(defUse(warnings(new PlanLoader(), plan))).isEmpty();
    }

    @Test
    void a_variable_assigned_only_inside_a_loop_body_is_unassigned_on_the_path_that_skips_the_loop() {
        String plan = """
                [{"seq_no": 0, "type": "assign", "parameters": {"i": 0}},
                 {"seq_no": 1, "type": "jmp", "parameters": {"condition": "${i < 3}", "jump_if_true": 2, "jump_if_false": 4}},
                 {"seq_no": 2, "type": "assign", "parameters": {"i": "${i + 1}", "last": "${i}"}},
                 {"seq_no": 3, "type": "jmp", "parameters": {"target_seq": 1}},
                 {"seq_no": 4, "type": "assign", "parameters": {"final_answer": "${last}"}}]""";
        List<Diagnostic> found = defUse(warnings(new PlanLoader(), plan));
        assertThat(found).singleElement().satisfies(w -> {
            assertThat(w.seqNo()).isEqualTo(4);
            assertThat(w.message()).contains("'last'").contains("the path 0 → 1 → 4");
        });
    }

    @Test
    void an_assign_sees_the_keys_before_the_one_it_evaluates_but_not_its_own_or_later_ones() {
        String earlierKey = """
                [{"seq_no": 0, "type": "assign", "parameters": {"a": 1, "final_answer": "${a}"}}]""";
        assertThat(defUse(warnings(new PlanLoader(), earlierKey))).isEmpty();
        String laterKey = """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${a}", "a": 1}}]""";
        assertThat(defUse(warnings(new PlanLoader(), laterKey)))
                .singleElement()
                .satisfies(w -> assertThat(w.message()).contains("before this assign sets it"));
    }

    @Test
    void inputs_given_to_the_run_count_as_assigned_at_the_start() {
        String plan = """
                [{"seq_no": 0, "type": "jmp", "parameters": {"condition": "${flag}", "jump_if_true": 2, "jump_if_false": 1}},
                 {"seq_no": 1, "type": "assign", "parameters": {"x": "set"}},
                 {"seq_no": 2, "type": "assign", "parameters": {"final_answer": "${x}"}}]""";
        assertThat(defUse(warnings(new PlanLoader().withInputs(Set.of("x")), plan)))
                .isEmpty();
        assertThat(warnings(new PlanLoader().withInputs(Set.of("flag")), plan))
                .noneMatch(w -> w.message().contains("'flag'"));
    }

    @Test
    void a_read_no_instruction_assigns_is_a_warning_and_an_error_only_when_the_inputs_are_declared() {
        String plan = """
                [{"seq_no": 0, "type": "assign", "parameters": {"final_answer": "${topic} ${other}"}}]""";
        assertThat(new PlanLoader().load(plan, "t.json").warnings())
                .anyMatch(w -> w.message().contains("'topic', which no instruction assigns"));
        LoadResult declared =
                new PlanLoader().withDeclaredInputs(Set.of("topic")).load(plan, "t.json");
        assertThat(declared.plan()).isNull();
        assertThat(declared.errors()).singleElement().satisfies(e -> {
            assertThat(e.seqNo()).isZero();
            assertThat(e.message()).contains("'other', which no instruction assigns and the plan's inputs (topic)");
        });
    }

    @Test
    void a_plain_sequential_plan_raises_no_def_use_warning() {
        String plan = """
                [{"seq_no": 0, "type": "calling", "parameters": {"tool_name": "t", "tool_params": {"q": "${q}"}, "output_vars": ["r"]}},
                 {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${r}"}}]""";
        assertThat(defUse(warnings(new PlanLoader(), plan))).isEmpty();
    }

    /** The figure for the closing note: how many def-use warnings the clean corpus raises, and of which kind. */
    @Test
    void the_corpus_warnings_are_counted_by_kind() throws IOException {
        PlanLoader loader = new PlanLoader();
        Map<String, Integer> byKind = new TreeMap<>();
        int plans = 0;
        int plansWarned = 0;
        try (Stream<Path> files = Files.list(Corpus.directory())) {
            for (Path file : files.filter(p -> p.getFileName().toString().matches("plan-\\d+\\.json"))
                    .sorted()
                    .toList()) {
                LoadResult result = loader.load(file);
                if (result.plan() == null) {
                    continue;
                }
                plans++;
                List<Diagnostic> found = defUse(result.warnings());
                if (!found.isEmpty()) {
                    plansWarned++;
                }
                for (Diagnostic w : found) {
                    String kind = w.message().contains("before this")
                            ? "read before the same step sets it"
                            : "a path skips the assignment";
                    byKind.merge(kind, 1, Integer::sum);
                }
            }
        }
        System.out.printf("def-use over %d valid corpus plans: %s in %d plans%n", plans, byKind, plansWarned);
        assertThat(plans).isGreaterThanOrEqualTo(StackVmCorpusTest.CLEAN_PLANS);
        assertThat(plansWarned).isLessThan(plans / 10);
    }
}
