package dev.planvm.junit;

import static dev.planvm.junit.PlanAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Each assertion of a run passes on a run that does it and says what the run did when it does not. */
class RunAssertTest {

    private final PlanVm vm = PlanVm.builder().build();

    private final RunResult succeeded = run("""
            [{"seq_no": 0, "type": "assign", "parameters": {"items": [1, 2], "final_answer": {"total": 3}}}]""");

    private final RunResult failedAtOne = run("""
            [{"seq_no": 0, "type": "assign", "parameters": {"a": 1}},
             {"seq_no": 1, "type": "assign", "parameters": {"final_answer": "${nowhere}"}}]""");

    @AfterEach
    void close() {
        vm.close();
    }

    private RunResult run(String plan) {
        return vm.run(vm.loader().load(plan, "plan.json").planOrThrow(), Map.of());
    }

    @Test
    void a_run_that_did_what_is_asserted_passes_every_assertion_in_a_chain() {
        assertThat(succeeded).succeeded().wrote("items", "[1, 2.0]").finalAnswer("{\"total\": 3}");
        assertThat(failedAtOne).failedAt(1).wrote("a", "1");
    }

    @Test
    void succeeded_says_how_the_run_failed() {
        assertThatThrownBy(() -> assertThat(failedAtOne).succeeded())
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("expected the run to succeed, but it failed: seq_no 1 (assign): ")
                .hasMessageContaining("nowhere");
    }

    @Test
    void failed_at_says_where_the_run_failed_or_that_it_succeeded() {
        assertThatThrownBy(() -> assertThat(failedAtOne).failedAt(0))
                .hasMessageStartingWith("expected the run to fail at seq_no 0, but it failed: seq_no 1 (assign)");
        assertThatThrownBy(() -> assertThat(succeeded).failedAt(0))
                .hasMessage("expected the run to fail at seq_no 0, but it succeeded (final_answer {\"total\":3})");
    }

    @Test
    void wrote_shows_the_json_diff_and_both_values() {
        Throwable thrown = Assertions.catchThrowable(() -> assertThat(succeeded).wrote("items", "[1, 3]"));

        Assertions.assertThat(thrown).hasMessage("variable 'items' is not as expected:\n  /items/1: expected 3, got 2");
        AssertionFailedError failure = (AssertionFailedError) thrown;
        Assertions.assertThat(failure.getExpected().getStringRepresentation()).isEqualTo("[ 1, 3 ]");
        Assertions.assertThat(failure.getActual().getStringRepresentation()).isEqualTo("[ 1, 2 ]");
    }

    @Test
    void wrote_names_the_variables_the_run_has_when_the_one_asked_for_is_missing() {
        assertThatThrownBy(() -> assertThat(succeeded).wrote("item", "[1, 2]"))
                .hasMessage("expected the run to write 'item', but it has no variable 'item' (did you mean 'items'?);"
                        + " its variables: final_answer, items");
    }

    @Test
    void final_answer_shows_the_json_diff() {
        assertThatThrownBy(() -> assertThat(succeeded).finalAnswer("{\"total\": 4}"))
                .hasMessage("final_answer is not as expected:\n  /final_answer/total: expected 4, got 3");
    }

    @Test
    void an_expected_value_that_is_not_json_is_a_mistake_in_the_test() {
        assertThatThrownBy(() -> assertThat(succeeded).finalAnswer("{total: 4}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the expected value is not JSON: ");
    }
}
