package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Fixtures.eval;
import static dev.planvm.instructions.expr.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

class PathsTest {

    private static final String USER =
            "{\"user\": {\"name\": \"Ada\", \"address\": {\"street\": \"Main\", \"zip\": \"123\"},"
                    + " \"tags\": [\"a\", \"b\"], \"first name\": \"A\"}}";

    @Test
    void a_member_path_reads_nested_keys() {
        assertThat(eval("user.address.zip", USER)).isEqualTo(TextNode.valueOf("123"));
    }

    @Test
    void an_index_reads_an_array_element() {
        assertThat(eval("user.tags[1]", USER)).isEqualTo(TextNode.valueOf("b"));
    }

    @Test
    void a_text_index_reads_a_key() {
        assertThat(eval("user['first name']", USER)).isEqualTo(TextNode.valueOf("A"));
    }

    @Test
    void a_computed_index_reads_an_element() {
        assertThat(eval("items[i + 1]", "{\"items\": [10, 20, 30], \"i\": 1}")).isEqualTo(IntNode.valueOf(30));
    }

    @Test
    void a_whole_double_index_reads_an_element() {
        assertThat(eval("items[4 / 2]", "{\"items\": [10, 20, 30]}")).isEqualTo(IntNode.valueOf(30));
    }

    @Test
    void a_missing_key_lists_the_keys_there_are() {
        assertThatThrownBy(() -> eval("user.address.city", USER))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${user.address.city}: 'user.address' has no key 'city' (it has: street, zip)");
    }

    @Test
    void a_missing_key_reports_variable_and_path() {
        assertThatThrownBy(() -> eval("user.address.city", USER))
                .isInstanceOfSatisfying(EvaluationException.class, e -> {
                    assertThat(e.variable()).isEqualTo("user");
                    assertThat(e.path()).isEqualTo("user.address.city");
                });
    }

    @Test
    void a_missing_key_in_a_large_object_lists_ten_keys_and_counts_the_rest() {
        String big =
                "{\"o\": {\"k0\":0,\"k1\":1,\"k2\":2,\"k3\":3,\"k4\":4,\"k5\":5,\"k6\":6,\"k7\":7,\"k8\":8,\"k9\":9,"
                        + "\"k10\":10,\"k11\":11}}";
        assertThatThrownBy(() -> eval("o.x", big))
                .hasMessage("${o.x}: 'o' has no key 'x' (it has: k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more)");
    }

    @Test
    void a_missing_key_in_an_empty_object_says_it_is_empty() {
        assertThatThrownBy(() -> eval("o['x']", "{\"o\": {}}"))
                .hasMessage("${o['x']}: 'o' has no key 'x' (it is empty)");
    }

    @Test
    void an_index_out_of_range_gives_the_length() {
        assertThatThrownBy(() -> eval("user.tags[5]", USER))
                .hasMessage("${user.tags[5]}: 'user.tags' has no element 5 (it has 2 elements)");
    }

    @Test
    void a_negative_index_is_out_of_range() {
        assertThatThrownBy(() -> eval("a[-1]", "{\"a\": [1]}"))
                .hasMessage("${a[-1]}: 'a' has no element -1 (it has 1 element)");
    }

    @Test
    void a_computed_index_is_shown_by_value_in_the_path() {
        assertThatThrownBy(() -> eval("rows[i].name", "{\"rows\": [{\"id\": 1}], \"i\": 0}"))
                .isInstanceOfSatisfying(EvaluationException.class, e -> {
                    assertThat(e).hasMessage("${rows[i].name}: 'rows[0]' has no key 'name' (it has: id)");
                    assertThat(e.path()).isEqualTo("rows[0].name");
                });
    }

    @Test
    void a_fractional_index_is_an_error() {
        assertThatThrownBy(() -> eval("a[1.5]", "{\"a\": [1, 2]}"))
                .hasMessage("${a[1.5]}: 'a' has no element 1.5: an index must be a whole number");
    }

    @Test
    void a_number_index_on_an_object_is_an_error() {
        assertThatThrownBy(() -> eval("user[0]", USER))
                .hasMessage("${user[0]}: 'user' is an object, not an array: cannot read [0]");
    }

    @Test
    void a_member_of_an_array_is_an_error_with_a_hint_for_length() {
        assertThatThrownBy(() -> eval("user.tags.length", USER))
                .hasMessage("${user.tags.length}: 'user.tags' is an array, not an object: cannot read 'length'"
                        + " (use len(user.tags))");
    }

    @Test
    void a_boolean_index_is_an_error() {
        assertThatThrownBy(() -> eval("a[true]", "{\"a\": [1]}"))
                .hasMessage("${a[true]}: the index of 'a' must be text or a number, got the boolean true");
    }

    @Test
    void a_step_into_null_is_an_error() {
        assertThatThrownBy(() -> eval("user.manager.name", "{\"user\": {\"manager\": null}}"))
                .hasMessage("${user.manager.name}: 'user.manager' is null: cannot read 'name'");
    }

    @Test
    void a_step_into_a_number_is_an_error_naming_the_type() {
        assertThatThrownBy(() -> eval("n.value", "{\"n\": 3}"))
                .hasMessage("${n.value}: 'n' is a number, not an object: cannot read 'value'");
    }

    @Test
    void a_step_into_a_boolean_is_an_error_naming_the_type() {
        assertThatThrownBy(() -> eval("b[0]", "{\"b\": true}"))
                .hasMessage("${b[0]}: 'b' is a boolean, not an array: cannot read [0]");
    }

    @Test
    void a_step_into_an_unset_variable_names_the_variable() {
        assertThatThrownBy(() -> eval("answer.city")).hasMessage("${answer.city}: variable 'answer' is not set");
    }

    @Test
    void a_member_step_navigates_into_text_holding_an_object() {
        assertThat(eval("answer.city", "{\"answer\": \"{\\\"city\\\": \\\"Paris\\\"}\"}"))
                .isEqualTo(TextNode.valueOf("Paris"));
    }

    @Test
    void a_member_step_navigates_into_a_json_fence() {
        String answer = "Here it is:\n```json\n{\"address\": {\"city\": \"Oslo\"}}\n```";
        assertThat(Evaluator.evaluate(ExprParser.parse("answer.address.city"), name -> TextNode.valueOf(answer)))
                .isEqualTo(TextNode.valueOf("Oslo"));
    }

    @Test
    void a_member_step_navigates_into_an_object_in_prose() {
        String answer = "Sure. The result is {\"score\": 7} as requested.";
        assertThat(Evaluator.evaluate(ExprParser.parse("answer.score"), name -> TextNode.valueOf(answer)))
                .isEqualTo(IntNode.valueOf(7));
    }

    @Test
    void an_index_step_navigates_into_text_holding_an_array() {
        assertThat(eval("answer[1]", "{\"answer\": \"[10, 20]\"}")).isEqualTo(IntNode.valueOf(20));
    }

    @Test
    void a_text_index_navigates_into_text_holding_an_object() {
        assertThat(eval("answer['a b']", "{\"answer\": \"{\\\"a b\\\": 1}\"}")).isEqualTo(IntNode.valueOf(1));
    }

    @Test
    void a_member_step_on_plain_text_is_an_error() {
        assertThatThrownBy(() -> eval("x.b", "{\"x\": \"just words\"}"))
                .hasMessage("${x.b}: 'x' is text, not an object: cannot read 'b'");
    }

    @Test
    void a_member_step_on_text_holding_an_array_is_an_error() {
        assertThatThrownBy(() -> eval("x.b", "{\"x\": \"[1, 2]\"}"))
                .hasMessage("${x.b}: 'x' holds an array, not an object: cannot read 'b'");
    }

    @Test
    void a_missing_key_in_text_holding_an_object_lists_its_keys() {
        assertThatThrownBy(() -> eval("x.b", "{\"x\": \"{\\\"a\\\": 1}\"}"))
                .hasMessage("${x.b}: 'x' has no key 'b' (it has: a)");
    }

    @Test
    void a_path_on_a_computed_value_names_the_expression() {
        assertThatThrownBy(() -> eval("(a || b).c", "{\"a\": {\"d\": 1}}"))
                .isInstanceOfSatisfying(EvaluationException.class, e -> {
                    assertThat(e).hasMessage("${(a || b).c}: '(a || b)' has no key 'c' (it has: d)");
                    assertThat(e.variable()).isNull();
                });
    }

    @Test
    void a_path_into_an_object_literal_works() {
        assertThat(eval("{a: [1, {b: 2}]}.a[1].b")).isEqualTo(json("2"));
    }
}
