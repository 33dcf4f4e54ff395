package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Fixtures.json;
import static dev.planvm.instructions.expr.Fixtures.template;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

/** The longest string a template may build ({@link Interpolator#interpolate(ValueTemplate, Variables, int)}). */
class InterpolatorLimitTest {

    private static final String VARS = "{\"ab\": \"ab\", \"cde\": \"cde\", \"cdef\": \"cdef\", \"six\": \"123456\","
            + " \"doc\": {\"text\": \"123456\"}, \"list\": [\"123456\"], \"nums\": [1, 2, 3, 4, 5, 6, 7, 8],"
            + " \"n\": 123, \"yes\": true, \"none\": null}";

    private static JsonNode interpolate(String text, int max) {
        return Interpolator.interpolate(template(TextNode.valueOf(text)), Fixtures.vars(VARS), max);
    }

    @Test
    void builds_a_string_exactly_as_long_as_the_limit() {
        assertThat(interpolate("${ab}${cde}", 5)).isEqualTo(TextNode.valueOf("abcde"));
        assertThat(interpolate("x${ab}yy", 5)).isEqualTo(TextNode.valueOf("xabyy"));
    }

    @Test
    void refuses_a_string_one_character_longer_before_building_it() {
        assertThatThrownBy(() -> interpolate("${ab}${cdef}", 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${ab}${cdef} built a string of 6 characters; the limit is 5");
        assertThatThrownBy(() -> interpolate("x${ab}yyy", 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("x${ab}yyy built a string of 6 characters; the limit is 5");
    }

    @Test
    void says_more_than_the_limit_when_a_value_was_not_measured_to_its_end() {
        assertThatThrownBy(() -> interpolate("x${nums}", 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("x${nums} built a string of more than 5 characters; the limit is 5");
        assertThatThrownBy(() -> interpolate("x${six}", 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("x${six} built a string of 7 characters; the limit is 5");
        assertThat(interpolate("${n}${yes}", 7)).isEqualTo(TextNode.valueOf("123true"));
    }

    @Test
    void counts_thousands_with_separators() {
        String big = "x".repeat(1_000_001);
        assertThatThrownBy(() -> interpolate(big + "${ab}", 1_000_000))
                .isInstanceOf(EvaluationException.class)
                .hasMessageEndingWith(" built a string of 1,000,003 characters; the limit is 1,000,000");
    }

    @Test
    void shows_at_most_eighty_characters_of_the_template() {
        String source = "y".repeat(100) + "${ab}";
        assertThatThrownBy(() -> interpolate(source, 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("y".repeat(79) + "… built a string of 102 characters; the limit is 5");
        String eighty = "y".repeat(75) + "${ab}";
        assertThatThrownBy(() -> interpolate(eighty, 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessageStartingWith(eighty + " built");
    }

    @Test
    void passes_on_a_long_value_that_a_single_reference_only_reads() {
        assertThat(interpolate("${six}", 5)).isEqualTo(TextNode.valueOf("123456"));
        assertThat(interpolate("${doc.text}", 5)).isEqualTo(TextNode.valueOf("123456"));
        assertThat(interpolate("${list[0]}", 5)).isEqualTo(TextNode.valueOf("123456"));
        assertThat(interpolate("${'123456'}", 5)).isEqualTo(TextNode.valueOf("123456"));
        assertThat(interpolate("${none || six}", 5)).isEqualTo(TextNode.valueOf("123456"));
        assertThat(interpolate("${yes && six}", 5)).isEqualTo(TextNode.valueOf("123456"));
    }

    @Test
    void holds_a_single_reference_that_computes_text_to_the_limit() {
        assertThat(interpolate("${ab + cde}", 5)).isEqualTo(TextNode.valueOf("abcde"));
        assertThatThrownBy(() -> interpolate("${ab + cdef}", 5))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${ab + cdef} built a string of 6 characters; the limit is 5");
        assertThatThrownBy(() -> interpolate("${lower(six)}", 5)).isInstanceOf(EvaluationException.class);
        assertThatThrownBy(() -> interpolate("${none || lower(six)}", 5)).isInstanceOf(EvaluationException.class);
        assertThatThrownBy(() -> interpolate("${lower(six) || none}", 5)).isInstanceOf(EvaluationException.class);
        assertThatThrownBy(() -> interpolate("${yes && lower(six)}", 5)).isInstanceOf(EvaluationException.class);
    }

    @Test
    void a_single_reference_to_a_long_value_that_is_not_text_passes() {
        assertThat(interpolate("${nums}", 5)).isEqualTo(json("[1, 2, 3, 4, 5, 6, 7, 8]"));
        assertThat(interpolate("${nums + nums}", 5)).hasSize(16);
    }

    @Test
    void renders_every_reference_in_order() {
        assertThat(interpolate("<${ab}|${n}|${none}|${doc}>", 100))
                .isEqualTo(TextNode.valueOf("<ab|123|null|{\"text\":\"123456\"}>"));
    }
}
