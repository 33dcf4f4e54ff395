package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class JsonValuesTest {

    private static JsonNode json(String s) throws Exception {
        return JsonValues.READER.readTree(s);
    }

    @Test
    void a_number_that_overflowed_to_infinity_is_found_with_its_pointer() throws Exception {
        assertThat(JsonValues.problem(json("{\"a\": [1, 1e400]}")))
                .contains("/a/1 is the number Infinity, which JSON cannot hold");
        assertThat(JsonValues.problem(DoubleNode.valueOf(Double.NaN)))
                .contains("the value is the number NaN, which JSON cannot hold");
        assertThat(JsonValues.find(DecimalNode.valueOf(new BigDecimal("1e400"))))
                .isPresent();
    }

    @Test
    void a_lone_surrogate_in_text_or_a_key_is_found_where_it_is() throws Exception {
        assertThat(JsonValues.problem(json("[\"ok\", {\"k~1/\": \"ab\\ud800\"}]")))
                .contains("/1/k~01~1 is text with a lone surrogate \\uD800 at character 2, which JSON cannot hold");
        assertThat(JsonValues.problem(JsonNodeFactory.instance.objectNode().put("\udc00", 1)))
                .contains("the value is an object with a key that has a lone surrogate \\uDC00 at character 0,"
                        + " which JSON cannot hold");
    }

    @Test
    void paired_surrogates_finite_numbers_and_big_integers_are_fine() throws Exception {
        assertThat(JsonValues.find(
                        json("[\"\\ud83d\\ude00\", \"\ud83d\ude00\", 1e308, 123456789012345678901234567890]")))
                .isEmpty();
        assertThat(JsonValues.loneSurrogate("a\ud83d\ude00b\ud83d")).isEqualTo(4);
        assertThat(JsonValues.find(TextNode.valueOf("x".repeat(1000)))).isEmpty();
    }

    @Test
    void the_reader_refuses_trailing_garbage_and_too_many_tokens() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> json("{\"a\": 1} x"))
                .isInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> json("[" + "0,".repeat(JsonValues.MAX_TOKENS) + "0]"))
                .isInstanceOf(com.fasterxml.jackson.core.exc.StreamConstraintsException.class);
    }

    @Test
    void a_preview_writes_only_what_it_shows() {
        TextNode text = TextNode.valueOf("x".repeat(10_000_000));
        JsonNode thrice =
                JsonNodeFactory.instance.arrayNode().add(text).add(text).add(text);
        assertThat(JsonPreview.compact(thrice, 10)).isEqualTo("[\"xxxxxxxx…");
        assertThat(JsonPreview.compact(JsonNodeFactory.instance.arrayNode().add(1), 10))
                .isEqualTo("[1]");
        assertThat(JsonPreview.cut("ab\ud83d\ude00", 3)).isEqualTo("ab…");
    }
}
