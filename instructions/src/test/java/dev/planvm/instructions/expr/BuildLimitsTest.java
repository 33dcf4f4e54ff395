package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ceilings of {@link BuildLimits}: exactly at them an expression builds, one past them it fails first. */
class BuildLimitsTest {

    private static final int MAX_TEXT = (int) BuildLimits.MAX_TEXT;
    private static final int MAX_ELEMENTS = (int) BuildLimits.MAX_ELEMENTS;
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static JsonNode eval(String expression, Map<String, JsonNode> values) {
        return Evaluator.evaluate(ExprParser.parse(expression), values::get);
    }

    private static TextNode text(int length) {
        return TextNode.valueOf("x".repeat(length));
    }

    private static ArrayNode array(int size) {
        ArrayNode array = NODES.arrayNode(size);
        for (int i = 0; i < size; i++) {
            array.add(1);
        }
        return array;
    }

    @Test
    void adding_texts_builds_up_to_the_ceiling_and_no_more() {
        int half = MAX_TEXT / 2;
        assertThat(eval("a + b", Map.of("a", text(half), "b", text(MAX_TEXT - half)))
                        .textValue())
                .hasSize(MAX_TEXT);
        assertThatThrownBy(() -> eval("a + b", Map.of("a", text(half), "b", text(MAX_TEXT - half + 1))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageEndingWith(
                        ": '+' would build text of more than 10,000,000 characters; one expression cannot build more");
    }

    @Test
    void adding_a_number_to_text_counts_the_number_as_rendered() {
        assertThat(eval("a + 12", Map.of("a", text(MAX_TEXT - 2))).textValue()).hasSize(MAX_TEXT);
        assertThatThrownBy(() -> eval("12 + a", Map.of("a", text(MAX_TEXT - 1))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": '+' would build text");
    }

    @Test
    void adding_arrays_builds_up_to_the_ceiling_and_no_more() {
        int half = MAX_ELEMENTS / 2;
        assertThat(eval("a + b", Map.of("a", array(half), "b", array(MAX_ELEMENTS - half))))
                .hasSize(MAX_ELEMENTS);
        assertThatThrownBy(() -> eval("a + b", Map.of("a", array(half), "b", array(MAX_ELEMENTS - half + 1))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageEndingWith(
                        ": '+' would build an array of more than 1,000,000 elements; one expression cannot build more");
    }

    @Test
    void str_renders_up_to_the_ceiling_and_no_more() {
        ArrayNode fits = NODES.arrayNode().add("x".repeat(MAX_TEXT - 4)); // ["..."]: four characters more
        assertThat(eval("str(a)", Map.of("a", fits)).textValue()).hasSize(MAX_TEXT);
        ArrayNode over = NODES.arrayNode().add("x".repeat(MAX_TEXT - 3));
        assertThatThrownBy(() -> eval("str(a)", Map.of("a", over)))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": str() would build text of more than 10,000,000 characters");
    }

    @Test
    void join_builds_up_to_the_ceiling_and_no_more() {
        int half = MAX_TEXT / 2;
        ArrayNode parts = NODES.arrayNode().add(text(half)).add(text(MAX_TEXT - half - 1));
        assertThat(eval("join(a, '-')", Map.of("a", parts)).textValue()).hasSize(MAX_TEXT);
        assertThatThrownBy(() -> eval("join(a, '--')", Map.of("a", parts)))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": join() would build text of more than 10,000,000 characters");
    }

    @Test
    void upper_counts_what_a_character_becomes_before_mapping() {
        // 'ß' becomes "SS": the text is one character shorter than its upper case for every 'ß'
        String fits = "ß".repeat(10_000) + "a".repeat(MAX_TEXT - 20_000);
        assertThat(eval("upper(a)", Map.of("a", TextNode.valueOf(fits))).textValue())
                .hasSize(MAX_TEXT);
        assertThatThrownBy(() -> eval("upper(a)", Map.of("a", TextNode.valueOf(fits + "ß"))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": upper() would build text of more than 10,000,000 characters");
    }

    @Test
    void lower_counts_what_a_character_becomes_before_mapping() {
        // 'İ' becomes "i̇" (two characters); ASCII and surrogate pairs stay one for one
        String fits = "İ".repeat(10_000) + "😀".repeat(1_000) + "A".repeat(MAX_TEXT - 22_000);
        assertThat(eval("lower(a)", Map.of("a", TextNode.valueOf(fits))).textValue())
                .hasSize(MAX_TEXT);
        assertThatThrownBy(() -> eval("lower(a)", Map.of("a", TextNode.valueOf(fits + "İ"))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": lower() would build text of more than 10,000,000 characters");
    }

    @Test
    void a_long_text_whose_case_cannot_grow_is_mapped_whatever_its_length() {
        assertThat(eval("upper(a)", Map.of("a", text(MAX_TEXT))).textValue())
                .startsWith("XXX")
                .hasSize(MAX_TEXT);
    }

    @Test
    void split_builds_up_to_the_ceiling_of_elements_and_no_more() {
        assertThat(eval("split(a, ',')", Map.of("a", TextNode.valueOf(",".repeat(MAX_ELEMENTS - 1)))))
                .hasSize(MAX_ELEMENTS);
        assertThatThrownBy(() -> eval("split(a, ',')", Map.of("a", TextNode.valueOf(",".repeat(MAX_ELEMENTS)))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageEndingWith(": split() would build an array of more than 1,000,000 elements;"
                        + " one expression cannot build more");
    }

    @Test
    void split_by_nothing_counts_code_points() {
        assertThat(eval("split(a, '')", Map.of("a", TextNode.valueOf("😀".repeat(MAX_ELEMENTS)))))
                .hasSize(MAX_ELEMENTS);
        assertThatThrownBy(() -> eval("split(a, '')", Map.of("a", TextNode.valueOf("a".repeat(MAX_ELEMENTS + 1)))))
                .isInstanceOf(EvaluationException.class)
                .hasMessageContaining(": split() would build an array of more than 1,000,000 elements");
    }

    @Test
    void split_keeps_empty_texts_at_either_end() {
        assertThat(eval("split(a, ',')", Map.of("a", TextNode.valueOf(",a,,b,"))))
                .containsExactly(
                        TextNode.valueOf(""),
                        TextNode.valueOf("a"),
                        TextNode.valueOf(""),
                        TextNode.valueOf("b"),
                        TextNode.valueOf(""));
        assertThat(eval("split(a, 'ab')", Map.of("a", TextNode.valueOf("abab"))))
                .hasSize(3);
    }
}
