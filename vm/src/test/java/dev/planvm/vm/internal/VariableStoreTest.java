package dev.planvm.vm.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.RunLimits;
import dev.planvm.vm.run.StepFailure;
import org.junit.jupiter.api.Test;

/** The run's memory budget as the variable store keeps it: what counts, what stops counting, where it stops. */
class VariableStoreTest {

    /** A budget of 10: text counts its characters, any other scalar 1. */
    private final VariableStore store = new VariableStore(RunLimits.DEFAULT.withMaxRunSize(10));

    private static TextNode text(int length) {
        return TextNode.valueOf("x".repeat(length));
    }

    @Test
    void values_fill_the_budget_exactly_and_one_character_more_is_refused_setting_nothing() {
        store.set("a", text(6));
        store.set("b", text(4));
        assertThat(store.snapshot()).containsOnlyKeys("a", "b");

        assertThatThrownBy(() -> store.set("c", IntNode.valueOf(1)))
                .isInstanceOf(LimitReached.class)
                .hasMessageContaining("setting 'c' would take the run past its limit")
                .hasMessageContaining("its variables would hold 11");
        assertThat(store.get("c")).isNull();
    }

    @Test
    void a_replaced_value_stops_counting_and_only_its_replacement_does() {
        store.set("a", text(9));
        store.set("a", text(2)); // 2 now, not 11
        store.set("b", text(8));
        assertThat(store.get("a").textValue()).hasSize(2);

        assertThatThrownBy(() -> store.set("a", text(3))).isInstanceOf(LimitReached.class);
        assertThat(store.get("a").textValue())
                .as("a refused value sets nothing")
                .hasSize(2);
    }

    @Test
    void a_value_json_cannot_hold_is_refused_and_sets_nothing() {
        assertThatThrownBy(() -> store.set("n", DoubleNode.valueOf(Double.NaN)))
                .isInstanceOf(StepFailure.class)
                .hasMessageStartingWith("the value for 'n' cannot be kept: ");
        assertThat(store.get("n")).isNull();
        store.set("m", text(10)); // the refused value took none of the budget
    }

    @Test
    void restored_values_do_not_count_and_restoring_over_a_set_value_frees_its_share() {
        store.restore("input", text(50));
        store.set("a", text(10));
        store.restore("a", text(3)); // the caller's value now: a's 10 no longer count
        store.set("b", text(10));
        assertThat(store.snapshot()).containsEntry("input", text(50)).containsEntry("a", text(3));
    }

    @Test
    void what_the_trace_keeps_counts_against_the_same_budget() {
        store.set("a", text(4));
        store.retain("the write of step 0", text(3));
        store.retain("the input of step 1", IntNode.valueOf(7));
        assertThatThrownBy(() -> store.retain(
                        "the output of step 1",
                        JsonNodeFactory.instance.objectNode().put("key", "value")))
                .as("an object counts its keys and values")
                .isInstanceOf(LimitReached.class);
        store.retain("the output of step 1", text(2));
        assertThat(store.snapshot()).containsOnlyKeys("a");

        assertThatThrownBy(() -> store.retain("the write of step 2", text(1)))
                .isInstanceOf(LimitReached.class)
                .hasMessageContaining("keeping the write of step 2 for the trace")
                .hasMessageContaining("its variables would hold 4 and its trace 6");
        assertThatThrownBy(() -> store.set("b", text(1)))
                .as("the trace's share leaves no room for variables")
                .isInstanceOf(LimitReached.class);
    }

    @Test
    void clear_drops_every_value_and_gives_the_whole_budget_back() {
        store.set("a", text(5));
        store.retain("a step's input", text(5));
        store.clear();
        assertThat(store.snapshot()).isEmpty();
        store.set("a", text(10));
        assertThatThrownBy(() -> store.set("b", IntNode.valueOf(1)))
                .as("a's share from before the clear is forgotten, its new one counts in full")
                .isInstanceOf(LimitReached.class);
    }
}
