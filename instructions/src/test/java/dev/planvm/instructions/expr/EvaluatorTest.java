package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Fixtures.eval;
import static dev.planvm.instructions.expr.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

class EvaluatorTest {

    @Test
    void multiplication_binds_tighter_than_addition() {
        assertThat(eval("1 + 2 * 3")).isEqualTo(IntNode.valueOf(7));
    }

    @Test
    void parentheses_group_first() {
        assertThat(eval("(1 + 2) * 3")).isEqualTo(IntNode.valueOf(9));
    }

    @Test
    void subtraction_is_left_associative() {
        assertThat(eval("10 - 3 - 2")).isEqualTo(IntNode.valueOf(5));
    }

    @Test
    void an_uneven_division_gives_a_fraction() {
        assertThat(eval("7 / 2")).isEqualTo(DoubleNode.valueOf(3.5));
    }

    @Test
    void an_even_division_gives_an_integer() {
        assertThat(eval("6 / 2")).isEqualTo(IntNode.valueOf(3));
    }

    @Test
    void integers_stay_integers_through_arithmetic() {
        assertThat(eval("n * 2 + 1", "{\"n\": 20}")).isEqualTo(IntNode.valueOf(41));
    }

    @Test
    void a_product_beyond_int_is_a_long() {
        assertThat(eval("n * 1000", "{\"n\": 2000000000}")).isEqualTo(LongNode.valueOf(2_000_000_000_000L));
    }

    @Test
    void a_double_with_no_fraction_becomes_an_integer() {
        assertThat(eval("x + 0.5", "{\"x\": 2.5}")).isEqualTo(IntNode.valueOf(3));
    }

    @Test
    void decimal_fractions_add_like_javascript() {
        assertThat(eval("0.1 + 0.2")).isEqualTo(DoubleNode.valueOf(0.30000000000000004));
    }

    @Test
    void modulo_keeps_the_sign_of_the_dividend() {
        assertThat(eval("-7 % 3")).isEqualTo(IntNode.valueOf(-1));
    }

    @Test
    void modulo_of_fractions_works() {
        assertThat(eval("5.5 % 2")).isEqualTo(DoubleNode.valueOf(1.5));
    }

    @Test
    void division_by_zero_is_an_error() {
        assertThatThrownBy(() -> eval("n / 0", "{\"n\": 1}"))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${n / 0}: division by zero");
    }

    @Test
    void modulo_by_zero_is_an_error() {
        assertThatThrownBy(() -> eval("5 % z", "{\"z\": 0.0}")).hasMessage("${5 % z}: division by zero");
    }

    @Test
    void text_plus_a_number_concatenates() {
        assertThat(eval("'a' + 1")).isEqualTo(TextNode.valueOf("a1"));
    }

    @Test
    void a_number_plus_text_renders_the_number_javascript_style() {
        assertThat(eval("7 / 2 + ' days'")).isEqualTo(TextNode.valueOf("3.5 days"));
    }

    @Test
    void text_plus_an_object_appends_compact_json() {
        assertThat(eval("'got ' + o", "{\"o\": {\"a\": [1, 2.0]}}")).isEqualTo(TextNode.valueOf("got {\"a\":[1,2]}"));
    }

    @Test
    void text_plus_null_appends_null() {
        assertThat(eval("'x=' + null")).isEqualTo(TextNode.valueOf("x=null"));
    }

    @Test
    void arrays_added_concatenate() {
        assertThat(eval("[1, 2] + [3]")).isEqualTo(json("[1, 2, 3]"));
    }

    @Test
    void adding_an_object_and_a_number_is_an_error() {
        assertThatThrownBy(() -> eval("o + 1", "{\"o\": {}}"))
                .hasMessage("${o + 1}: cannot add an object and a number");
    }

    @Test
    void subtracting_text_is_an_error_naming_both_types() {
        assertThatThrownBy(() -> eval("n - s", "{\"n\": 5, \"s\": \"abc\"}"))
                .hasMessage("${n - s}: '-' needs two numbers, got the number 5 and text 'abc'");
    }

    @Test
    void multiplying_numeric_text_suggests_num() {
        assertThatThrownBy(() -> eval("s * 2", "{\"s\": \"12\"}"))
                .hasMessage("${s * 2}: '*' needs two numbers, got text '12' and the number 2"
                        + " (use num(x) to read text as a number)");
    }

    @Test
    void negation_of_a_number_works() {
        assertThat(eval("-n", "{\"n\": 4}")).isEqualTo(IntNode.valueOf(-4));
    }

    @Test
    void negation_of_text_is_an_error() {
        assertThatThrownBy(() -> eval("-s", "{\"s\": \"x\"}")).hasMessage("${-s}: '-' needs a number, got text 'x'");
    }

    @Test
    void a_result_beyond_double_range_is_an_error() {
        assertThatThrownBy(() -> eval("big * 10", "{\"big\": 1e308}"))
                .hasMessage("${big * 10}: the result Infinity is not a finite number");
    }

    @Test
    void integer_and_double_with_the_same_value_are_equal() {
        assertThat(eval("5 == 5.0")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void text_and_number_are_never_equal() {
        assertThat(eval("'5' == 5")).isEqualTo(BooleanNode.FALSE);
    }

    @Test
    void objects_are_equal_when_deeply_equal_with_numbers_by_value() {
        assertThat(eval("o == {b: [1.0, 'x'], a: 2}", "{\"o\": {\"a\": 2, \"b\": [1, \"x\"]}}"))
                .isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void arrays_of_different_order_are_not_equal() {
        assertThat(eval("[1, 2] != [2, 1]")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void null_equals_only_null() {
        assertThat(eval("x == null", "{\"x\": null}")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void numbers_compare_by_value() {
        assertThat(eval("n < 10.5", "{\"n\": 10}")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void large_longs_compare_exactly() {
        assertThat(eval("a < b", "{\"a\": 9007199254740992, \"b\": 9007199254740993}"))
                .isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void texts_compare_lexicographically() {
        assertThat(eval("'apple' < 'banana' && 'b' >= 'b'")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void comparing_text_with_a_number_is_an_error_naming_the_types() {
        assertThatThrownBy(() -> eval("s > 3", "{\"s\": \"abc\"}"))
                .hasMessage("${s > 3}: cannot compare text 'abc' and the number 3 with '>'");
    }

    @Test
    void empty_text_zero_null_and_false_are_falsy() {
        assertThat(eval("!'' && !0 && !null && !false && !0.0")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void empty_arrays_and_objects_are_truthy() {
        assertThat(eval("!![] && !!{} && !!'0'")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void or_returns_the_first_truthy_operand() {
        assertThat(eval("name || 'default'", "{\"name\": \"\"}")).isEqualTo(TextNode.valueOf("default"));
    }

    @Test
    void and_returns_the_first_falsy_operand() {
        assertThat(eval("n && 'yes'", "{\"n\": 0}")).isEqualTo(IntNode.valueOf(0));
    }

    @Test
    void and_returns_the_right_operand_when_the_left_is_truthy() {
        assertThat(eval("n && 'yes'", "{\"n\": 1}")).isEqualTo(TextNode.valueOf("yes"));
    }

    @Test
    void or_does_not_evaluate_the_right_side_when_the_left_decides() {
        assertThat(eval("ok || missing", "{\"ok\": true}")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void and_does_not_evaluate_the_right_side_when_the_left_decides() {
        assertThat(eval("found && found.name", "{\"found\": null}")).isEqualTo(NullNode.getInstance());
    }

    @Test
    void literals_evaluate_to_themselves() {
        assertThat(eval("'it\\'s'")).isEqualTo(TextNode.valueOf("it's"));
    }

    @Test
    void array_and_object_literals_build_values() {
        assertThat(eval("{total: n + 1, tags: ['a', t]}", "{\"n\": 1, \"t\": \"b\"}"))
                .isEqualTo(json("{\"total\": 2, \"tags\": [\"a\", \"b\"]}"));
    }

    @Test
    void an_unset_variable_is_an_error_naming_it() {
        assertThatThrownBy(() -> eval("count + 1"))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${count + 1}: variable 'count' is not set");
    }

    @Test
    void the_error_for_an_unset_variable_reports_variable_and_path() {
        assertThatThrownBy(() -> eval("count")).isInstanceOfSatisfying(EvaluationException.class, e -> {
            assertThat(e.variable()).isEqualTo("count");
            assertThat(e.path()).isEqualTo("count");
        });
    }

    @Test
    void a_variable_holding_json_null_is_set() {
        assertThat(eval("x", "{\"x\": null}")).isEqualTo(NullNode.getInstance());
    }
}
