package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonMappersTest {

    record Point(int x) {}

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }

    @Test
    void reads_as_deep_as_the_profile_allows_and_no_deeper() throws Exception {
        int depth = JsonLimits.CONFIG.maxDepth();
        assertThat(JsonMappers.mapper(JsonLimits.CONFIG).readTree(nested(depth)))
                .isNotNull();
        assertThatThrownBy(() -> JsonMappers.mapper(JsonLimits.CONFIG).readTree(nested(depth + 1)))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refuses_a_number_longer_than_the_profile_allows() throws Exception {
        String digits = "1".repeat(JsonLimits.CONFIG.maxNumberLength());
        assertThat(JsonMappers.mapper(JsonLimits.CONFIG).readTree(digits).isNumber())
                .isTrue();
        assertThatThrownBy(() -> JsonMappers.mapper(JsonLimits.CONFIG).readTree(digits + "1"))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refuses_a_longer_string_than_the_profile_allows() throws Exception {
        JsonLimits limits = JsonLimits.STORE.withMaxStringLength(10);
        assertThat(JsonMappers.mapper(limits).readTree("\"0123456789\"").asText())
                .hasSize(10);
        assertThatThrownBy(() -> JsonMappers.mapper(limits).readTree("\"0123456789a\""))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refuses_a_longer_document_than_the_profile_allows() throws Exception {
        JsonLimits limits = JsonLimits.PLAN.withMaxBytes(20);
        assertThat(limits.maxStringLength()).isEqualTo(20);
        assertThat(JsonMappers.mapper(limits).readTree("[1, 2, 3]")).hasSize(3);
        assertThatThrownBy(() -> JsonMappers.mapper(limits).readTree("[1, 2, 3, 4, 5, 6, 7, 8, 9]"))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void counts_tokens_where_the_profile_limits_them() throws Exception {
        JsonLimits limits = JsonLimits.LLM_ANSWER.withMaxTokens(5);
        assertThat(JsonMappers.mapper(limits).readTree("[1, 2, 3]")).hasSize(3);
        assertThatThrownBy(() -> JsonMappers.mapper(limits).readTree("[1, 2, 3, 4]"))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refuses_duplicate_keys_only_where_the_profile_says() throws Exception {
        String twice = "{\"a\": 1, \"a\": 2}";
        assertThat(JsonMappers.mapper(JsonLimits.STORE).readTree(twice).get("a").asInt())
                .isEqualTo(2);
        assertThatThrownBy(() -> JsonMappers.mapper(JsonLimits.PLAN_FILE).readTree(twice))
                .isInstanceOf(JsonProcessingException.class)
                .hasMessageContaining("Duplicate field 'a'");
    }

    @Test
    void every_profile_but_an_llm_plan_answer_refuses_text_after_the_value() throws Exception {
        List<String> lenient = new ArrayList<>();
        for (Field field : JsonLimits.class.getFields()) {
            if (field.getType() != JsonLimits.class || !Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            JsonLimits limits = (JsonLimits) field.get(null);
            for (String text : List.of("42 apples", "[1,2] or more", "{} {}")) {
                try {
                    JsonMappers.mapper(limits).readTree(text);
                    lenient.add(field.getName() + ": " + text);
                } catch (JsonProcessingException refused) {
                    // refused: "Trailing token", or "Unrecognized token 'apples'"
                }
            }
        }
        assertThat(lenient)
                .containsExactly("PLAN_ANSWER: 42 apples", "PLAN_ANSWER: [1,2] or more", "PLAN_ANSWER: {} {}");
    }

    @Test
    void builds_one_mapper_per_profile_and_shares_it() {
        assertThat(JsonMappers.mapper(JsonLimits.HTTP_BODY)).isSameAs(JsonMappers.mapper(JsonLimits.HTTP_BODY));
        assertThat(JsonMappers.mapper(JsonLimits.STORE
                        .withMaxDepth(500)
                        .withMaxStringLength(64 << 20)
                        .strict()))
                .isSameAs(JsonMappers.mapper(JsonLimits.HTTP_BODY));
        assertThat(JsonMappers.mapper(JsonLimits.HTTP_BODY)).isNotSameAs(JsonMappers.mapper(JsonLimits.CONFIG));
        assertThat(JsonMappers.factory(JsonLimits.CONFIG)).isSameAs(JsonMappers.factory(JsonLimits.CONFIG));
    }

    @Test
    void binds_leniently_only_when_asked() throws Exception {
        String more = "{\"x\": 1, \"y\": 2}";
        assertThat(JsonMappers.lenientBinding(JsonLimits.MCP_MESSAGE).readValue(more, Point.class))
                .isEqualTo(new Point(1));
        assertThatThrownBy(() -> JsonMappers.mapper(JsonLimits.MCP_MESSAGE).readValue(more, Point.class))
                .isInstanceOf(UnrecognizedPropertyException.class);
        assertThat(JsonMappers.lenientBinding(JsonLimits.MCP_MESSAGE))
                .isNotSameAs(JsonMappers.mapper(JsonLimits.MCP_MESSAGE));
    }

    @Test
    void writes_indented_json_as_a_tree_prints_itself() throws Exception {
        JsonNode tree = JsonMappers.mapper(JsonLimits.STORE).readTree("{\"a\": [1, {\"b\": null}], \"c\": \"d\"}");
        assertThat(JsonMappers.pretty().writeValueAsString(tree)).isEqualTo(tree.toPrettyString());
    }

    @Test
    void refuses_limits_that_are_not_positive() {
        assertThatThrownBy(() -> JsonLimits.STORE.withMaxDepth(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }
}
