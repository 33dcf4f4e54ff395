package dev.planvm.vm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One hostile expression fails the step; it cannot exhaust memory. */
class BuildLimitsTest {

    private RunResult run(String expression, String s) {
        PlanVm vm = PlanVm.builder().build();
        String plan =
                "[{\"seq_no\": 0, \"type\": \"assign\", \"parameters\": {\"final_answer\": \"" + expression + "\"}}]";
        return vm.run(vm.loader().load(plan, "p").planOrThrow(), Map.of("s", TextNode.valueOf(s)));
    }

    @Test
    void joining_a_split_text_with_itself_is_refused_before_it_is_built() {
        RunResult result = run("${len(join(split(s, ''), s))}", "x".repeat(100_000));
        assertThat(result.succeeded()).isFalse();
        assertThat(result.error().describe())
                .startsWith("seq_no 0 (assign): ")
                .contains("join() would build text of more than 10,000,000 characters");
    }

    @Test
    void concatenation_beyond_the_ceiling_is_refused_before_it_is_built() {
        RunResult result = run("${len(s + s + s)}", "y".repeat(4_000_000));
        assertThat(result.error().describe()).contains("'+' would build text of more than 10,000,000 characters");
    }

    @Test
    void splitting_into_too_many_parts_is_refused_before_it_is_split() {
        RunResult result = run("${len(split(s, ','))}", ",".repeat(1_500_000));
        assertThat(result.error().describe()).contains("split() would build an array of more than 1,000,000 elements");
    }

    @Test
    void ordinary_expressions_are_untouched() {
        assertThat(run("${join(split(s, ','), '-')}", "a,b,c").finalAnswer().asText())
                .isEqualTo("a-b-c");
    }
}
