package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class JsonDiffTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    @Test
    void numbers_compare_by_value_at_any_depth() throws Exception {
        assertThat(JsonEquality.equal(json("{\"a\": [5, 1e2]}"), json("{\"a\": [5.0, 100]}")))
                .isTrue();
        assertThat(JsonDiff.diff("/final_answer", json("5"), json("5.0"))).isEmpty();
    }

    @Test
    void a_number_and_its_text_differ() throws Exception {
        assertThat(JsonDiff.diff("/final_answer", json("42"), json("\"42\"")))
                .containsExactly("/final_answer: expected 42, got \"42\"");
    }

    @Test
    void key_order_does_not_matter_but_keys_do() throws Exception {
        assertThat(JsonEquality.equal(json("{\"a\": 1, \"b\": 2}"), json("{\"b\": 2, \"a\": 1}")))
                .isTrue();
        assertThat(JsonDiff.diff("/final_answer", json("{\"a\": 1, \"b\": 2}"), json("{\"a\": 1, \"c\": 3}")))
                .containsExactly("/final_answer/b: missing (expected 2)", "/final_answer/c: unexpected 3");
    }

    @Test
    void differences_are_located_by_json_pointer() throws Exception {
        assertThat(JsonDiff.diff(
                        "/final_answer",
                        json("{\"items\": [1, {\"ok\": true}]}"),
                        json("{\"items\": [2, {\"ok\": false}]}")))
                .containsExactly(
                        "/final_answer/items/0: expected 1, got 2",
                        "/final_answer/items/1/ok: expected true, got false");
    }

    @Test
    void pointer_segments_escape_slash_and_tilde() throws Exception {
        assertThat(JsonDiff.diff("", json("{\"a/b~c\": 1}"), json("{\"a/b~c\": 2}")))
                .containsExactly("/a~1b~0c: expected 1, got 2");
    }

    @Test
    void arrays_of_different_lengths_say_so_and_list_the_extra_elements() throws Exception {
        assertThat(JsonDiff.diff("/x", json("[1, 2]"), json("[1, 2, 3]")))
                .containsExactly("/x: expected 2 elements, got 3 elements", "/x/2: unexpected 3");
        assertThat(JsonDiff.diff("/x", json("[1, 2]"), json("[1]")))
                .containsExactly("/x: expected 2 elements, got 1 element", "/x/1: missing (expected 2)");
    }

    @Test
    void an_inline_diff_names_the_expected_side_escapes_pointers_and_keeps_every_difference_on_one_line()
            throws Exception {
        String longText = "x".repeat(200);
        assertThat(JsonDiff.inline(
                        json("{\"params\": {\"a/b\": \"tidb\", \"t\": \"" + longText + "\", \"k\": 1}}"),
                        json("{\"params\": {\"a/b\": \"mysql\", \"t\": \"y\\nz\", \"n\": 2}}"),
                        "recorded",
                        2))
                .containsExactly(
                        "/params/a~1b: recorded \"tidb\", got \"mysql\"",
                        "/params/t: recorded \"" + "x".repeat(119) + "…, got \"y\\nz\"",
                        "… and 2 more differences");
    }

    @Test
    void count_is_the_number_of_differences_however_many_there_are() throws Exception {
        assertThat(JsonDiff.count(json("[1, 2, 3]"), json("[1, 2, 3]"))).isZero();
        assertThat(JsonDiff.count(json("{\"a\": 1, \"b\": [1, 2]}"), json("{\"a\": 2, \"c\": 3, \"b\": [1, 3]}")))
                .isEqualTo(3);
    }

    @Test
    void a_type_change_is_one_line_with_both_values_in_json() throws Exception {
        assertThat(JsonDiff.diff("/final_answer", json("\"42 is even\""), json("null")))
                .containsExactly("/final_answer: expected \"42 is even\", got null");
    }

    @Test
    void short_texts_are_compared_on_one_line() throws Exception {
        assertThat(JsonDiff.diff("/final_answer", json("\"42 is even\""), json("\"42 is odd\"")))
                .containsExactly("/final_answer: expected \"42 is even\", got \"42 is odd\"");
    }

    @Test
    void texts_with_several_lines_get_a_line_diff_under_their_pointer() throws Exception {
        assertThat(JsonDiff.diff("/final_answer", json("{\"s\": \"a\\nb\\nc\"}"), json("{\"s\": \"a\\nB\\nc\"}")))
                .containsExactly(
                        "/final_answer/s: text differs (- expected, + actual):",
                        "  @@ -1,3 +1,3 @@",
                        "   a",
                        "  -b",
                        "  +B",
                        "   c");
    }

    @Test
    void long_values_are_cut() throws Exception {
        String line = JsonDiff.diff("/x", json("[\"" + "y".repeat(300) + "\"]"), json("1"))
                .get(0);
        assertThat(line).hasSizeLessThan(300).contains("…, got 1");
    }

    @Test
    void many_differences_are_capped_with_a_count_of_the_rest() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        var expected = mapper.createArrayNode();
        var actual = mapper.createArrayNode();
        for (int i = 0; i < 25; i++) {
            expected.add(i);
            actual.add(i + 1);
        }
        assertThat(JsonDiff.diff("/x", expected, actual))
                .hasSize(JsonDiff.MAX_LINES + 1)
                .last()
                .isEqualTo("… and 5 more differences");
    }
}
