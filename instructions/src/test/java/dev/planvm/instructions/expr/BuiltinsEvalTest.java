package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Fixtures.eval;
import static dev.planvm.instructions.expr.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltinsEvalTest {

    @Test
    void every_builtin_implementation_handles_its_own_arity() {
        // an implementation reading more arguments than its arity allows would throw something other than
        // an EvaluationException (an index out of bounds) at its smallest and largest accepted call
        for (String name : Builtins.NAMES) {
            Builtins.Arity arity = Builtins.arity(name).orElseThrow();
            for (int n : new int[] {arity.min(), Math.min(arity.max(), arity.min() + 2)}) {
                List<Expr> args = java.util.Collections.nCopies(n, new Expr.Literal(IntNode.valueOf(7), 0));
                try {
                    Evaluator.evaluate(new Expr.Call(name, args, 0), v -> null);
                } catch (EvaluationException fine) {
                    assertThat(fine.getMessage())
                            .doesNotContain("unknown function")
                            .doesNotContain("takes");
                }
            }
        }
    }

    @Test
    void a_call_with_the_wrong_number_of_arguments_is_an_error() {
        Expr call = new Expr.Call("len", List.of(), 0);
        assertThatThrownBy(() -> Evaluator.evaluate(call, name -> null))
                .hasMessage("${len()}: len() takes 1 argument, got 0");
    }

    @Test
    void len_counts_code_points_of_text() {
        assertThat(eval("len('h\u00e9\uD83D\uDE00')")).isEqualTo(IntNode.valueOf(3));
    }

    @Test
    void len_counts_array_elements_and_object_keys() {
        assertThat(eval("len([1, 2, 3]) + len({a: 1})")).isEqualTo(IntNode.valueOf(4));
    }

    @Test
    void len_of_a_number_is_an_error() {
        assertThatThrownBy(() -> eval("len(n)", "{\"n\": 5}")).isInstanceOfSatisfying(EvaluationException.class, e -> {
            assertThat(e).hasMessage("${len(n)}: len() needs text, an array or an object, got the number 5");
            assertThat(e.variable()).isEqualTo("n");
        });
    }

    @Test
    void str_renders_numbers_javascript_style() {
        assertThat(eval("str(6 / 2)")).isEqualTo(TextNode.valueOf("3"));
    }

    @Test
    void str_renders_objects_as_compact_json() {
        assertThat(eval("str({a: [1, null, true]})")).isEqualTo(TextNode.valueOf("{\"a\":[1,null,true]}"));
    }

    @Test
    void str_of_null_is_the_text_null() {
        assertThat(eval("str(null)")).isEqualTo(TextNode.valueOf("null"));
    }

    @Test
    void num_reads_an_integer_from_text() {
        assertThat(eval("num(' 42 ')")).isEqualTo(IntNode.valueOf(42));
    }

    @Test
    void num_reads_a_fraction_from_text() {
        assertThat(eval("num('3.5')")).isEqualTo(DoubleNode.valueOf(3.5));
    }

    @Test
    void num_reads_an_exponent_from_text() {
        assertThat(eval("num('-1.5e3')")).isEqualTo(IntNode.valueOf(-1500));
    }

    @Test
    void num_turns_booleans_into_one_and_zero() {
        assertThat(eval("num(true) + num(false)")).isEqualTo(IntNode.valueOf(1));
    }

    @Test
    void num_keeps_a_number() {
        assertThat(eval("num(2.5)")).isEqualTo(DoubleNode.valueOf(2.5));
    }

    @Test
    void num_of_words_is_an_error() {
        assertThatThrownBy(() -> eval("num('abc')")).hasMessage("${num('abc')}: cannot convert 'abc' to a number");
    }

    @Test
    void num_of_hexadecimal_is_an_error() {
        assertThatThrownBy(() -> eval("num('0x1A')")).hasMessage("${num('0x1A')}: cannot convert '0x1A' to a number");
    }

    @Test
    void num_of_null_is_an_error() {
        assertThatThrownBy(() -> eval("num(null)")).hasMessage("${num(null)}: cannot convert null to a number");
    }

    @Test
    void json_parses_text_as_json() {
        assertThat(eval("json(s).a[0]", "{\"s\": \"{\\\"a\\\": [7]}\"}")).isEqualTo(IntNode.valueOf(7));
    }

    @Test
    void json_parses_a_scalar() {
        assertThat(eval("json('42')")).isEqualTo(IntNode.valueOf(42));
    }

    @Test
    void json_parses_a_fenced_answer() {
        assertThat(eval("json(s)", "{\"s\": \"```json\\n{\\\"ok\\\": true}\\n```\"}"))
                .isEqualTo(json("{\"ok\": true}"));
    }

    @Test
    void json_keeps_a_value_that_is_not_text() {
        assertThat(eval("json(o)", "{\"o\": {\"a\": 1}}")).isEqualTo(json("{\"a\": 1}"));
    }

    @Test
    void json_of_invalid_text_is_an_error() {
        assertThatThrownBy(() -> eval("json(s)", "{\"s\": \"not json\"}"))
                .hasMessage("${json(s)}: json() cannot parse 'not json' as JSON");
    }

    @Test
    void keys_lists_object_keys_in_document_order() {
        assertThat(eval("keys(o)", "{\"o\": {\"z\": 1, \"a\": 2}}")).isEqualTo(json("[\"z\", \"a\"]"));
    }

    @Test
    void keys_reads_an_object_held_by_text() {
        assertThat(eval("keys(s)", "{\"s\": \"Result: {\\\"x\\\": 1}\"}")).isEqualTo(json("[\"x\"]"));
    }

    @Test
    void keys_of_an_array_is_an_error() {
        assertThatThrownBy(() -> eval("keys([1])")).hasMessage("${keys([1])}: keys() needs an object, got an array");
    }

    @Test
    void keys_of_plain_text_is_an_error() {
        assertThatThrownBy(() -> eval("keys('hi')"))
                .hasMessage("${keys('hi')}: keys() needs an object, got text holding no JSON object");
    }

    @Test
    void values_lists_object_values_in_document_order() {
        assertThat(eval("values({b: 1, a: 'x'})")).isEqualTo(json("[1, \"x\"]"));
    }

    @Test
    void values_of_a_number_is_an_error() {
        assertThatThrownBy(() -> eval("values(1)"))
                .hasMessage("${values(1)}: values() needs an object, got the number 1");
    }

    @Test
    void lower_and_upper_change_case() {
        assertThat(eval("lower('AbC') + upper('dEf')")).isEqualTo(TextNode.valueOf("abcDEF"));
    }

    @Test
    void trim_strips_surrounding_whitespace() {
        assertThat(eval("trim('  a b \\n')")).isEqualTo(TextNode.valueOf("a b"));
    }

    @Test
    void upper_of_a_number_is_an_error() {
        assertThatThrownBy(() -> eval("upper(1)")).hasMessage("${upper(1)}: upper() needs text, got the number 1");
    }

    @Test
    void contains_finds_rendered_values_in_text() {
        assertThat(eval("contains('order 42 shipped', 42)")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void contains_finds_equal_elements_in_arrays() {
        assertThat(eval("contains([1, {a: 2.0}], {a: 2})")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void contains_is_false_for_an_absent_element() {
        assertThat(eval("contains([1, 2], '1')")).isEqualTo(BooleanNode.FALSE);
    }

    @Test
    void contains_finds_keys_in_objects() {
        assertThat(eval("contains({a: 1}, 'a')")).isEqualTo(BooleanNode.TRUE);
    }

    @Test
    void contains_in_a_number_is_an_error() {
        assertThatThrownBy(() -> eval("contains(1, 1)"))
                .hasMessage(
                        "${contains(1, 1)}: contains() needs text, an array or an object to look in, got the number 1");
    }

    @Test
    void join_uses_a_comma_by_default() {
        assertThat(eval("join([1, 'a', 2.5])")).isEqualTo(TextNode.valueOf("1,a,2.5"));
    }

    @Test
    void join_uses_the_given_separator() {
        assertThat(eval("join(['a', 'b'], ' | ')")).isEqualTo(TextNode.valueOf("a | b"));
    }

    @Test
    void join_of_text_is_an_error() {
        assertThatThrownBy(() -> eval("join('ab')")).hasMessage("${join('ab')}: join() needs an array, got text 'ab'");
    }

    @Test
    void split_cuts_text_at_each_separator() {
        assertThat(eval("split('a,b,,c', ',')")).isEqualTo(json("[\"a\", \"b\", \"\", \"c\"]"));
    }

    @Test
    void split_with_an_empty_separator_gives_each_character() {
        assertThat(eval("split('ab', '')")).isEqualTo(json("[\"a\", \"b\"]"));
    }

    @Test
    void split_of_an_array_is_an_error() {
        assertThatThrownBy(() -> eval("split([1], ',')"))
                .hasMessage("${split([1], ',')}: split() needs text, got an array");
    }

    @Test
    void abs_removes_the_sign() {
        assertThat(eval("abs(-2.5)")).isEqualTo(DoubleNode.valueOf(2.5));
    }

    @Test
    void round_rounds_halves_up_like_javascript() {
        assertThat(eval("[round(2.5), round(-2.5), round(2.4)]")).isEqualTo(json("[3, -2, 2]"));
    }

    @Test
    void floor_and_ceil_give_integers() {
        assertThat(eval("[floor(-1.5), ceil(1.2)]")).isEqualTo(json("[-2, 2]"));
    }

    @Test
    void round_of_text_is_an_error() {
        assertThatThrownBy(() -> eval("round('1.5')"))
                .hasMessage("${round('1.5')}: round() needs a number, got text '1.5'");
    }

    @Test
    void min_and_max_take_several_numbers() {
        assertThat(eval("[min(3, 1.5, 2), max(3, 1.5, 2)]")).isEqualTo(json("[1.5, 3]"));
    }

    @Test
    void min_and_max_take_a_single_array() {
        assertThat(eval("max(xs) - min(xs)", "{\"xs\": [4, 9, 1]}")).isEqualTo(IntNode.valueOf(8));
    }

    @Test
    void min_of_an_empty_array_is_an_error() {
        assertThatThrownBy(() -> eval("min([])")).hasMessage("${min([])}: min() of an empty array");
    }

    @Test
    void max_of_text_is_an_error() {
        assertThatThrownBy(() -> eval("max(1, 'a')")).hasMessage("${max(1, 'a')}: max() needs numbers, got text 'a'");
    }
}
