package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class JsNumbersTest {

    private static String render(double d) {
        return JsNumbers.render(DoubleNode.valueOf(d));
    }

    @Test
    void a_whole_double_becomes_an_int_node() {
        assertThat(JsNumbers.number(3.0)).isEqualTo(IntNode.valueOf(3));
    }

    @Test
    void a_whole_double_beyond_int_becomes_a_long_node() {
        assertThat(JsNumbers.number(5_000_000_000.0)).isEqualTo(LongNode.valueOf(5_000_000_000L));
    }

    @Test
    void a_whole_double_from_two_to_the_53_on_stays_a_double_node() {
        assertThat(JsNumbers.number(9007199254740992.0)).isInstanceOf(DoubleNode.class);
    }

    @Test
    void a_fraction_stays_a_double_node() {
        assertThat(JsNumbers.number(3.5)).isEqualTo(DoubleNode.valueOf(3.5));
    }

    @Test
    void negative_zero_becomes_zero() {
        assertThat(JsNumbers.number(-0.0)).isEqualTo(IntNode.valueOf(0));
    }

    @Test
    void infinity_is_not_a_finite_number() {
        assertThatThrownBy(() -> JsNumbers.number(Double.POSITIVE_INFINITY))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("the result Infinity is not a finite number");
    }

    @Test
    void nan_is_not_a_finite_number() {
        assertThatThrownBy(() -> JsNumbers.number(Double.NaN))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("the result NaN is not a finite number");
    }

    @Test
    void a_fraction_renders_with_its_digits() {
        assertThat(render(3.5)).isEqualTo("3.5");
    }

    @Test
    void a_whole_double_renders_without_a_trailing_zero() {
        assertThat(render(3.0)).isEqualTo("3");
    }

    @Test
    void negative_zero_renders_as_zero() {
        assertThat(render(-0.0)).isEqualTo("0");
    }

    @Test
    void ten_to_the_21_renders_with_an_exponent() {
        assertThat(render(1e21)).isEqualTo("1e+21");
    }

    @Test
    void ten_to_the_20_renders_with_all_its_digits() {
        assertThat(render(1e20)).isEqualTo("100000000000000000000");
    }

    @Test
    void a_large_whole_double_renders_its_shortest_digits_padded_with_zeros() {
        assertThat(render(Math.pow(2, 60))).isEqualTo("1152921504606847000");
    }

    @Test
    void a_small_number_renders_with_a_negative_exponent() {
        assertThat(render(1.5e-7)).isEqualTo("1.5e-7");
    }

    @Test
    void a_millionth_renders_as_a_plain_decimal() {
        assertThat(render(0.000001)).isEqualTo("0.000001");
    }

    @Test
    void a_sum_with_rounding_error_renders_all_seventeen_digits() {
        assertThat(render(0.1 + 0.2)).isEqualTo("0.30000000000000004");
    }

    @Test
    void a_negative_fraction_renders_with_its_sign() {
        assertThat(render(-2.25)).isEqualTo("-2.25");
    }

    @Test
    void a_large_exponent_renders_with_a_mantissa() {
        assertThat(render(1.2345e30)).isEqualTo("1.2345e+30");
    }

    @Test
    void ten_to_the_23_renders_shortest_although_java_17_prints_it_long() {
        assertThat(render(1.0E23)).isEqualTo("1e+23");
    }

    @Test
    void a_large_number_renders_shortest_although_java_17_prints_it_long() {
        assertThat(render(8.41E21)).isEqualTo("8.41e+21");
    }

    @Test
    void a_whole_number_below_ten_to_the_21_renders_shortest_digits_and_zeros() {
        assertThat(render(2.82879384806159E17)).isEqualTo("282879384806159000");
    }

    @Test
    void an_int_node_renders_its_digits() {
        assertThat(JsNumbers.render(IntNode.valueOf(-42))).isEqualTo("-42");
    }

    @Test
    void a_big_integer_renders_all_its_digits() {
        assertThat(JsNumbers.render(BigIntegerNode.valueOf(new BigInteger("123456789012345678901234"))))
                .isEqualTo("123456789012345678901234");
    }

    @Test
    void a_whole_decimal_node_renders_without_a_fraction() {
        assertThat(JsNumbers.render(DecimalNode.valueOf(new BigDecimal("4.000"))))
                .isEqualTo("4");
    }
}
