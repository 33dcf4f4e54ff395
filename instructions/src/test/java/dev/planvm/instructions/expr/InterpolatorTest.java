package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.Fixtures.json;
import static dev.planvm.instructions.expr.Fixtures.template;
import static dev.planvm.instructions.expr.Fixtures.vars;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

class InterpolatorTest {

    private static final String VARS =
            "{\"n\": 42, \"half\": 3.5, \"name\": \"Ada\", \"user\": {\"id\": 7, \"tags\": [\"x\"]},"
                    + " \"nothing\": null, \"ok\": true}";

    private static JsonNode interpolate(String templateJson) {
        return Interpolator.interpolate(template(json(templateJson)), vars(VARS));
    }

    @Test
    void a_single_reference_keeps_a_number_a_number() {
        assertThat(interpolate("\"${n}\"")).isEqualTo(IntNode.valueOf(42));
    }

    @Test
    void a_single_reference_keeps_an_object_an_object() {
        assertThat(interpolate("\"${user}\"")).isEqualTo(json("{\"id\": 7, \"tags\": [\"x\"]}"));
    }

    @Test
    void a_single_reference_keeps_null_null() {
        assertThat(interpolate("\"${nothing}\"")).isEqualTo(NullNode.getInstance());
    }

    @Test
    void an_embedded_text_is_inserted_as_is() {
        assertThat(interpolate("\"Hello ${name}!\"")).isEqualTo(TextNode.valueOf("Hello Ada!"));
    }

    @Test
    void an_embedded_object_is_rendered_as_compact_json() {
        assertThat(interpolate("\"user=${user}\"")).isEqualTo(TextNode.valueOf("user={\"id\":7,\"tags\":[\"x\"]}"));
    }

    @Test
    void an_embedded_null_is_rendered_as_null() {
        assertThat(interpolate("\"value: ${nothing}\"")).isEqualTo(TextNode.valueOf("value: null"));
    }

    @Test
    void an_embedded_boolean_is_rendered_as_json() {
        assertThat(interpolate("\"ok=${ok}\"")).isEqualTo(TextNode.valueOf("ok=true"));
    }

    @Test
    void an_embedded_whole_quotient_renders_without_a_fraction() {
        assertThat(interpolate("\"${6 / 2} items\"")).isEqualTo(TextNode.valueOf("3 items"));
    }

    @Test
    void an_embedded_fraction_renders_javascript_style() {
        assertThat(interpolate("\"${half} and ${n / 4}\"")).isEqualTo(TextNode.valueOf("3.5 and 10.5"));
    }

    @Test
    void a_reference_surrounded_by_spaces_is_text() {
        assertThat(interpolate("\" ${n}\"")).isEqualTo(TextNode.valueOf(" 42"));
    }

    @Test
    void an_escaped_reference_stays_literal() {
        assertThat(interpolate("\"$${n}\"")).isEqualTo(TextNode.valueOf("${n}"));
    }

    @Test
    void an_escaped_reference_beside_a_real_one_stays_literal() {
        assertThat(interpolate("\"$${n} is ${n}\"")).isEqualTo(TextNode.valueOf("${n} is 42"));
    }

    @Test
    void a_phone_number_without_references_stays_the_same_string() {
        assertThat(interpolate("\"555-1234\"")).isEqualTo(TextNode.valueOf("555-1234"));
    }

    @Test
    void a_date_without_references_stays_the_same_string() {
        assertThat(interpolate("\"2024-12-31\"")).isEqualTo(TextNode.valueOf("2024-12-31"));
    }

    @Test
    void a_constant_is_returned_as_the_same_node() {
        JsonNode constant = json("{\"a\": [1, \"b\"]}");
        assertThat(Interpolator.interpolate(template(constant), vars(VARS))).isSameAs(constant);
    }

    @Test
    void nested_objects_and_arrays_are_walked() {
        assertThat(interpolate(
                        "{\"to\": \"${name}\", \"meta\": {\"ids\": [\"${user.id}\", 2, \"#${n}\"]}, \"fixed\": \"x\"}"))
                .isEqualTo(json("{\"to\": \"Ada\", \"meta\": {\"ids\": [7, 2, \"#42\"]}, \"fixed\": \"x\"}"));
    }

    @Test
    void a_failing_reference_names_the_expression_and_the_path() {
        assertThatThrownBy(() -> interpolate("\"id: ${user.name}\""))
                .isInstanceOf(EvaluationException.class)
                .hasMessage("${user.name}: 'user' has no key 'name' (it has: id, tags)");
    }

    @Test
    void an_unset_variable_in_text_is_an_error_not_an_empty_string() {
        assertThatThrownBy(() -> interpolate("\"Dear ${missing},\""))
                .hasMessage("${missing}: variable 'missing' is not set");
    }

    @Test
    void render_writes_text_raw() {
        assertThat(Interpolator.render(TextNode.valueOf("a \"b\""))).isEqualTo("a \"b\"");
    }

    @Test
    void render_writes_nested_numbers_javascript_style() {
        assertThat(Interpolator.render(json("{\"a\": 2.0, \"b\": [1e21, 0.5], \"s\": \"q\\\"\\n\"}")))
                .isEqualTo("{\"a\":2,\"b\":[1e+21,0.5],\"s\":\"q\\\"\\n\"}");
    }
}
