package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Finding JSON in text takes one linear pass whatever the text: hostile LLM answers and tool
 * outputs (a million unmatched brackets, nested half-objects, quotes that flip what is a string)
 * are scanned in one pass. The quadratic scan this replaces took minutes on these inputs; the limit
 * tells the two apart on a loaded machine.
 */
class JsonTextLinearTest {

    private static final int MILLION = 1_000_000;
    /**
     * A deadline that proves "not hung", no timing target: a linear scan takes well under a second idle (a few
     * seconds on a loaded 2-core box), the quadratic one it replaced minutes; timings are bench's.
     */
    private static final Duration BUDGET = Duration.ofSeconds(60);

    private static <T> T fast(Supplier<T> work) {
        return assertTimeoutPreemptively(BUDGET, work::get);
    }

    @Test
    void a_million_unmatched_open_braces_are_scanned_in_well_under_a_second() {
        String text = "{".repeat(MILLION);
        assertThat(fast(() -> JsonText.parse(text))).isEmpty();
        assertThat(fast(() -> JsonText.findObject(text))).isEmpty();
    }

    @Test
    void a_million_unmatched_open_brackets_are_scanned_in_well_under_a_second() {
        assertThat(fast(() -> JsonText.parse("[".repeat(MILLION)))).isEmpty();
    }

    @Test
    void open_objects_that_each_start_a_key_are_scanned_in_well_under_a_second() {
        String text = "{\"a\":".repeat(MILLION / 5);
        assertThat(fast(() -> JsonText.parse(text))).isEmpty();
    }

    @Test
    void quotes_that_make_every_brace_a_new_start_are_scanned_in_well_under_a_second() {
        String text = "\"{".repeat(MILLION / 2);
        assertThat(fast(() -> JsonText.parse(text))).isEmpty();
    }

    @Test
    void nested_arrays_broken_at_the_centre_are_scanned_in_well_under_a_second() {
        int depth = 1_000;
        String level = "[" + "1,".repeat(500);
        String text = level.repeat(depth) + "x" + "]".repeat(depth);
        assertThat(fast(() -> JsonText.parse(text))).isEmpty();
    }

    @Test
    void balanced_spans_that_do_not_parse_are_scanned_in_well_under_a_second() {
        String text = "{x}".repeat(MILLION / 3) + "{\"a\": 1}";
        assertThat(fast(() -> JsonText.parse(text))).contains(json("{\"a\": 1}"));
    }

    @Test
    void an_object_after_a_million_unmatched_braces_is_still_found() {
        String text = "{".repeat(MILLION) + " then {\"ok\": true}";
        assertThat(fast(() -> JsonText.findObject(text)))
                .map(JsonNode.class::cast)
                .contains(json("{\"ok\": true}"));
    }

    @Test
    void a_long_valid_object_in_prose_is_found_in_linear_time() {
        String value = "x".repeat(MILLION);
        String text = "Here: {\"doc\": \"" + value + "\", \"n\": [1, 2, {\"m\": 3}]} done";
        Optional<JsonNode> found = fast(() -> JsonText.parse(text));
        assertThat(found).isPresent();
        assertThat(found.get().path("doc").textValue()).hasSize(MILLION);
    }

    private static JsonNode json(String s) {
        try {
            return new ObjectMapper().readTree(s);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
