package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueSizeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static ValueSize measure(String json) throws Exception {
        return ValueSize.of(JSON.readTree(json), Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    @Test
    void counts_the_characters_of_text_and_one_for_anything_else() throws Exception {
        assertThat(measure("\"abc\"")).isEqualTo(new ValueSize(3, 0));
        assertThat(measure("\"\"")).isEqualTo(new ValueSize(0, 0));
        assertThat(measure("12345")).isEqualTo(new ValueSize(1, 0));
        assertThat(measure("null")).isEqualTo(new ValueSize(1, 0));
        assertThat(measure("[1, \"ab\"]")).isEqualTo(new ValueSize(4, 1));
        assertThat(measure("{\"k\": null}")).isEqualTo(new ValueSize(3, 1));
        assertThat(measure("{\"key\": \"value\", \"n\": [true, {}]}")).isEqualTo(new ValueSize(13, 3));
    }

    @Test
    void counts_how_deep_containers_nest() throws Exception {
        assertThat(measure("[]").depth()).isEqualTo(1);
        assertThat(measure("{}").depth()).isEqualTo(1);
        assertThat(measure("[{\"a\": []}]").depth()).isEqualTo(3);
        assertThat(measure("[[], [[[1]]], {}]").depth()).isEqualTo(4);
        assertThat(measure("{\"a\": {\"b\": 1}, \"c\": [[[]]]}").depth()).isEqualTo(4);
    }

    /** Sizes and depths of values to check the limits against. */
    private static List<JsonNode> values() throws Exception {
        return List.of(
                JSON.readTree("[1, \"ab\", [\"cde\", {\"fg\": \"hij\"}], {}]"),
                JSON.readTree("{\"a\": {\"b\": {\"c\": [1, 2, 3]}}, \"long key\": \"long value\"}"),
                JSON.readTree("[[[[[[\"deep\"]]]]], 1, 2, 3]"));
    }

    @Test
    void is_exact_within_the_limits() throws Exception {
        for (JsonNode value : values()) {
            ValueSize whole = ValueSize.of(value, Long.MAX_VALUE, Integer.MAX_VALUE);
            assertThat(ValueSize.of(value, whole.size(), whole.depth())).isEqualTo(whole);
            assertThat(ValueSize.of(value, whole.size() + 1, whole.depth() + 1)).isEqualTo(whole);
        }
    }

    @Test
    void is_over_the_size_limit_whenever_the_value_is() throws Exception {
        for (JsonNode value : values()) {
            ValueSize whole = ValueSize.of(value, Long.MAX_VALUE, Integer.MAX_VALUE);
            for (long limit = 0; limit < whole.size(); limit++) {
                assertThat(ValueSize.of(value, limit, Integer.MAX_VALUE).size())
                        .as("%s over %d", value, limit)
                        .isGreaterThan(limit);
            }
        }
    }

    @Test
    void is_over_the_depth_limit_whenever_the_value_is() throws Exception {
        for (JsonNode value : values()) {
            ValueSize whole = ValueSize.of(value, Long.MAX_VALUE, Integer.MAX_VALUE);
            for (int limit = 0; limit < whole.depth(); limit++) {
                assertThat(ValueSize.of(value, Long.MAX_VALUE, limit).depth())
                        .as("%s deeper than %d", value, limit)
                        .isEqualTo(limit + 1);
            }
        }
    }

    @Test
    void stops_measuring_soon_after_the_size_limit() {
        ObjectNode wide = NODES.objectNode();
        for (int i = 0; i < 1000; i++) {
            wide.put("k" + i, 1);
        }
        assertThat(ValueSize.of(wide, Long.MAX_VALUE, 10).size()).isGreaterThan(3000);
        assertThat(ValueSize.of(wide, 10, 10).size()).isBetween(11L, 15L);

        ArrayNode nested = NODES.arrayNode();
        for (int i = 0; i < 1000; i++) {
            nested.addArray().add("x");
        }
        assertThat(ValueSize.of(nested, Long.MAX_VALUE, 10).size()).isEqualTo(2001);
        assertThat(ValueSize.of(nested, 10, 10).size()).isBetween(11L, 13L);

        ObjectNode deepFields = NODES.objectNode();
        for (int i = 0; i < 1000; i++) {
            deepFields.putObject("o" + i).put("x", "y");
        }
        assertThat(ValueSize.of(deepFields, 10, 10).size()).isBetween(11L, 14L);
    }

    @Test
    void stops_at_the_first_container_past_the_depth_limit() {
        ArrayNode deep = NODES.arrayNode();
        ArrayNode at = deep;
        for (int i = 0; i < 100; i++) {
            at.add("x".repeat(10));
            at = at.addArray();
        }
        ValueSize measured = ValueSize.of(deep, Long.MAX_VALUE, 5);
        assertThat(measured.depth()).isEqualTo(6);
        assertThat(measured.size()).isLessThan(100);
    }
}
