package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** NAME=VALUE, as --var and @PlanTests(vars) read it. */
class VariableAssignmentTest {

    @Test
    void a_value_that_parses_as_json_is_json_else_text() {
        assertThat(VariableAssignment.parse("n=3").value().isInt()).isTrue();
        assertThat(VariableAssignment.parse("tags=[\"a\",\"b\"]").value().size())
                .isEqualTo(2);
        assertThat(VariableAssignment.parse("s=\"quoted\"").value().asText()).isEqualTo("quoted");
        assertThat(VariableAssignment.parse("topic=TiDB best practices").value().asText())
                .isEqualTo("TiDB best practices");
        assertThat(VariableAssignment.parse("empty=").value().asText()).isEmpty();
        assertThat(VariableAssignment.parse("eq=a=b").value().asText()).isEqualTo("a=b");
    }

    @Test
    void a_value_is_json_only_when_the_whole_text_is() {
        assertThat(VariableAssignment.parse("note=42 apples").value())
                .isEqualTo(com.fasterxml.jackson.databind.node.TextNode.valueOf("42 apples"));
        assertThat(VariableAssignment.parse("x=[1,2] or more").value())
                .isEqualTo(com.fasterxml.jackson.databind.node.TextNode.valueOf("[1,2] or more"));
        assertThat(VariableAssignment.parse("o={\"a\": 1} {\"b\": 2}").value().isTextual())
                .isTrue();
        assertThat(VariableAssignment.parse("padded= [1,2] ").value().size()).isEqualTo(2);
    }

    @Test
    void the_name_is_everything_before_the_first_equals_sign() {
        assertThat(VariableAssignment.parse("_x1=1").name()).isEqualTo("_x1");
    }

    @Test
    void a_missing_equals_sign_or_a_bad_name_is_refused_with_the_rule() {
        assertThatThrownBy(() -> VariableAssignment.parse("novalue"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("novalue: expected NAME=VALUE with NAME made of letters, digits and _,"
                        + " not starting with a digit");
        assertThatThrownBy(() -> VariableAssignment.parse("2x=1")).hasMessageStartingWith("2x=1: expected NAME=VALUE");
        assertThatThrownBy(() -> VariableAssignment.parse("a-b=1")).hasMessageStartingWith("a-b=1: expected");
    }

    @Test
    void a_value_a_stored_run_could_not_keep_is_refused() {
        assertThatThrownBy(() -> VariableAssignment.parse("big=1e400"))
                .hasMessageStartingWith("big: ")
                .hasMessageEndingWith("; a stored run could not keep it");
    }
}
