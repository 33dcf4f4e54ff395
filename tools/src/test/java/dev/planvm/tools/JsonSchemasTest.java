package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.tools.chain.internal.ParamsCheck;
import org.junit.jupiter.api.Test;

/**
 * Untrusted schemas ({@code human_input}'s, a tool's params schema from a server, an answer schema): one with a
 * {@code $ref} cycle would overflow the validating thread's stack at every value, so it is refused where it is
 * compiled, with the pointer of the reference.
 */
class JsonSchemasTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static final String CYCLE =
            "{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": \"#/properties/x\"}}}";

    @Test
    void the_validator_alone_overflows_on_a_ref_cycle() throws Exception {
        var raw = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
                .getSchema(json(CYCLE));
        assertThatThrownBy(() -> raw.validate(json("{\"x\": 1}"))).isInstanceOf(StackOverflowError.class);
    }

    @Test
    void a_schema_with_a_ref_cycle_is_refused_where_it_is_compiled_with_its_pointer() throws Exception {
        assertThatThrownBy(() -> JsonSchemas.compile(json(CYCLE)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the schema cannot be used: its $ref at /properties/x/$ref leads back to /properties/x"
                        + " without going deeper into the value (a $ref cycle): no value could ever be checked");
        assertThat(JsonSchemas.problem(json("{\"items\": {\"$ref\": \"#\"}}"))).isEmpty();
    }

    @Test
    void a_value_nested_deeper_than_the_stack_can_follow_through_a_recursive_schema_is_a_problem_not_an_overflow()
            throws Exception {
        var tree = JsonSchemas.compile(json("{\"type\": \"array\", \"items\": {\"$ref\": \"#\"}}"));
        JsonNode deep = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < 3_000; i++) {
            deep = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                    .arrayNode()
                    .add(deep);
        }
        JsonNode value = deep;
        java.util.List<java.util.List<String>> seen = new java.util.ArrayList<>();
        Thread small = new Thread(null, () -> seen.add(JsonSchemas.problems(tree, value, 5)), "small", 256 * 1024);
        small.start();
        small.join();
        assertThat(seen)
                .singleElement()
                .isEqualTo(java.util.List.of(
                        "the value is nested too deeply to be checked against this schema, which follows its nesting"));
        assertThat(JsonSchemas.problems(tree, json("[[[]]]"), 5)).isEmpty();
    }

    @Test
    void a_tool_whose_params_schema_has_a_ref_cycle_fails_its_call_with_a_sentence() throws Exception {
        JsonNode schema = json(CYCLE);
        Tool tool = new Tool() {
            @Override
            public String name() {
                return "looping";
            }

            @Override
            public String description() {
                return "";
            }

            @Override
            public JsonNode paramsSchema() {
                return schema;
            }

            @Override
            public JsonNode invoke(JsonNode params, CallContext context) {
                return TextNode.valueOf("called");
            }
        };
        assertThatThrownBy(() -> new ParamsCheck().check(tool, json("{\"x\": 1}")))
                .isInstanceOfSatisfying(
                        ToolException.class, e -> assertThat(e.retriable()).isFalse())
                .hasMessageStartingWith("tool 'looping' has a params schema planvm cannot use: the schema cannot be"
                        + " used: its $ref at /properties/x/$ref");
    }
}
