package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RenderedLength} against the rendering it predicts ({@link Interpolator#render}). */
class RenderedLengthTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    /** Values of every kind, with every escape CompactJson writes, nested. */
    private static List<JsonNode> values() throws Exception {
        ObjectNode escapes = NODES.objectNode();
        escapes.put("quote\"", "back\\slash");
        escapes.put("nl\n", "tab\t cr\r bs\b ff\f");
        escapes.put("\u0001", "\u001f and \u0000");
        escapes.put(" space", "~ \u007f é \u2028 😀");
        ArrayNode kinds = NODES.arrayNode();
        kinds.add(1)
                .add(-0.0)
                .add(1.5)
                .add(1e21)
                .add(new BigDecimal("12.50"))
                .add(new BigInteger("123456789012345678901"));
        kinds.add(true).add(false).addNull().add("text").add(NODES.binaryNode(new byte[] {1, 2, 3}));
        kinds.add(NODES.pojoNode(new StringBuilder("pojo")));
        return List.of(
                NODES.textNode("plain text, \"as is\"\n"),
                NODES.textNode(""),
                NODES.numberNode(42),
                NODES.numberNode(-0.5),
                NODES.numberNode(1e300),
                NODES.numberNode(new BigDecimal("1E+3")),
                NODES.booleanNode(true),
                NODES.booleanNode(false),
                NODES.nullNode(),
                NODES.missingNode(),
                NODES.binaryNode(new byte[] {0, 1, 2, 3, 4}),
                NODES.pojoNode(List.of(1)),
                json("[]"),
                json("{}"),
                json("[1]"),
                json("{\"k\": 1}"),
                json("[[], {}, [[]], {\"a\": {}}]"),
                json("{\"a\": {\"b\": [1, 2, {\"c\": null}]}, \"d\": \"e\"}"),
                escapes,
                kinds,
                NODES.arrayNode().add(escapes).add(kinds));
    }

    @Test
    void is_the_length_of_the_rendering_for_every_kind_of_value() throws Exception {
        for (JsonNode value : values()) {
            assertThat(RenderedLength.of(value, Long.MAX_VALUE))
                    .as("%s", value)
                    .isEqualTo(Interpolator.render(value).length());
        }
    }

    @Test
    void is_exact_when_the_rendering_fits_the_limit() throws Exception {
        for (JsonNode value : values()) {
            int length = Interpolator.render(value).length();
            for (int limit = length; limit <= length + 2; limit++) {
                assertThat(RenderedLength.of(value, limit))
                        .as("%s within %d", value, limit)
                        .isEqualTo(length);
            }
        }
    }

    @Test
    void is_over_the_limit_whenever_the_rendering_is() throws Exception {
        for (JsonNode value : values()) {
            int length = Interpolator.render(value).length();
            for (int limit = 0; limit < length; limit++) {
                assertThat(RenderedLength.of(value, limit))
                        .as("%s over %d", value, limit)
                        .isGreaterThan(limit);
            }
        }
    }

    @Test
    void stops_counting_soon_after_the_limit() {
        ArrayNode pairs = NODES.arrayNode();
        for (int i = 0; i < 100; i++) {
            pairs.addArray().add(1).add(1);
        }
        // the outer brackets and separators are 101 characters, each [1,1] five more: 601 in all
        assertThat(RenderedLength.of(pairs, Long.MAX_VALUE)).isEqualTo(601);
        assertThat(RenderedLength.of(pairs, 200)).isBetween(201L, 203L);

        ObjectNode wide = NODES.objectNode();
        for (int i = 0; i < 100; i++) {
            wide.putObject("k" + i).put("v", 1);
        }
        long whole = RenderedLength.of(wide, Long.MAX_VALUE);
        assertThat(whole).isEqualTo(Interpolator.render(wide).length());
        assertThat(RenderedLength.of(wide, whole / 2)).isLessThan(whole);
    }

    @Test
    void counts_text_at_the_top_as_is_however_long() {
        assertThat(RenderedLength.of(NODES.textNode("\"\n".repeat(50)), 3)).isEqualTo(100);
    }
}
