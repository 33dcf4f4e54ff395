package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class JsonTextTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return MAPPER.readTree(s);
    }

    @Test
    void a_plain_object_is_found() throws Exception {
        assertThat(JsonText.parse("  {\"a\": 1}\n")).contains(json("{\"a\": 1}"));
    }

    @Test
    void an_object_inside_prose_is_found() throws Exception {
        String text = "Sure! Here is the result: {\"city\": \"Paris\", \"zip\": \"75001\"}. Anything else?";
        assertThat(JsonText.parse(text)).contains(json("{\"city\": \"Paris\", \"zip\": \"75001\"}"));
    }

    @Test
    void an_object_in_a_json_fence_is_found() throws Exception {
        String text = "Here you go:\n```json\n{\"ok\": true}\n```\nDone.";
        assertThat(JsonText.parse(text)).contains(json("{\"ok\": true}"));
    }

    @Test
    void an_object_in_a_fence_without_language_is_found() throws Exception {
        String text = "Result:\n```\n{\"ok\": true}\n```";
        assertThat(JsonText.parse(text)).contains(json("{\"ok\": true}"));
    }

    @Test
    void a_fence_is_preferred_to_an_object_in_the_prose_before_it() throws Exception {
        String text = "The format is {name}. Answer:\n```json\n{\"name\": \"x\"}\n```";
        assertThat(JsonText.parse(text)).contains(json("{\"name\": \"x\"}"));
    }

    @Test
    void a_fence_in_another_language_is_skipped() throws Exception {
        String text = "```python\n{\"a\": 1}\n```\n```json\n{\"b\": 2}\n```";
        assertThat(JsonText.parse(text)).contains(json("{\"b\": 2}"));
    }

    @Test
    void the_first_of_two_objects_wins() throws Exception {
        assertThat(JsonText.parse("first {\"a\": 1} then {\"b\": 2}")).contains(json("{\"a\": 1}"));
    }

    @Test
    void braces_inside_strings_do_not_end_the_object() throws Exception {
        String text = "Answer: {\"s\": \"a } and { and \\\" quote }\", \"n\": 1} end";
        assertThat(JsonText.parse(text)).contains(json("{\"s\": \"a } and { and \\\" quote }\", \"n\": 1}"));
    }

    @Test
    void an_invalid_object_followed_by_a_valid_one_yields_the_valid_one() throws Exception {
        assertThat(JsonText.parse("{not json} but {\"a\": 1}")).contains(json("{\"a\": 1}"));
    }

    @Test
    void invalid_json_yields_nothing() {
        assertThat(JsonText.parse("{\"a\": 1,, }")).isEmpty();
    }

    @Test
    void text_without_json_yields_nothing() {
        assertThat(JsonText.parse("just some words")).isEmpty();
    }

    @Test
    void a_json_scalar_does_not_count() {
        assertThat(JsonText.parse("42")).isEmpty();
    }

    @Test
    void null_text_yields_nothing() {
        assertThat(JsonText.parse(null)).isEmpty();
    }

    @Test
    void a_plain_array_is_found() throws Exception {
        assertThat(JsonText.parse("[1, 2, 3]")).contains(json("[1, 2, 3]"));
    }

    @Test
    void an_array_in_prose_is_found_when_there_is_no_object() throws Exception {
        assertThat(JsonText.parse("The ids are [1, 2, 3].")).contains(json("[1, 2, 3]"));
    }

    @Test
    void an_array_of_objects_in_prose_is_found_whole() throws Exception {
        String text = "Results: [{\"a\": 1}, {\"b\": 2}] as requested";
        assertThat(JsonText.parse(text)).contains(json("[{\"a\": 1}, {\"b\": 2}]"));
    }

    @Test
    void an_object_wins_over_an_earlier_array_that_does_not_enclose_it() throws Exception {
        assertThat(JsonText.parse("see [1] and {\"a\": 1}")).contains(json("{\"a\": 1}"));
    }

    @Test
    void find_object_returns_the_object_in_a_fence() throws Exception {
        String text = "```json\n{\"a\": {\"b\": 2}}\n```";
        assertThat(JsonText.findObject(text)).contains((ObjectNode) json("{\"a\": {\"b\": 2}}"));
    }

    @Test
    void find_object_skips_arrays() throws Exception {
        assertThat(JsonText.findObject("[1, 2] then {\"a\": 1}")).contains((ObjectNode) json("{\"a\": 1}"));
    }

    @Test
    void find_object_yields_nothing_for_an_array_of_scalars() {
        assertThat(JsonText.findObject("[1, 2, 3]")).isEmpty();
    }
}
