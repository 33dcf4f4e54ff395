package dev.planvm.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SchemaRefCyclesTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text.replace('\'', '"'));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{'$ref': '#'}                                                              | /$ref",
                "{'$defs': {'a': {'$ref': '#/$defs/a'}}, '$ref': '#/$defs/a'}               | /$defs/a/$ref",
                "{'properties': {'x': {'$ref': '#/properties/x'}}}                          | /properties/x/$ref",
                "{'$defs': {'a': {'$ref': '#/$defs/b'}, 'b': {'allOf': [{'$ref': '#/$defs/a'}]}}} | /$defs/b/allOf/0/$ref",
                "{'$defs': {'a': {'anyOf': [{'type': 'string'}, {'not': {'$ref': '#/$defs/a'}}]}}} | /$defs/a/anyOf/1/not/$ref",
                "{'$defs': {'a': {'$anchor': 'here', '$ref': '#here'}}}                     | /$defs/a/$ref",
                "{'$defs': {'a': {'$id': 'urn:x:a', '$ref': 'urn:x:a'}}}                    | /$defs/a/$ref",
                "{'$id': 'https://e.com/root.json', '$defs': {'a': {'$ref': 'root.json'}}, 'allOf': [{'$ref': '#/$defs/a'}]} | /$defs/a/$ref",
                "{'$defs': {'a b': {'$ref': '#/$defs/a%20b'}}}                              | /$defs/a b/$ref",
                "{'if': {'$ref': '#'}}                                                      | /if/$ref",
            })
    void finds_a_reference_that_leads_back_without_going_deeper(String schema, String pointer) throws Exception {
        assertThat(SchemaRefCycles.find(json(schema)))
                .hasValueSatisfying(cycle -> assertThat(cycle.pointer()).isEqualTo(pointer));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "{'type': 'object', 'properties': {'children': {'type': 'array', 'items': {'$ref': '#'}}}}",
                "{'$defs': {'node': {'properties': {'next': {'$ref': '#/$defs/node'}}}}, '$ref': '#/$defs/node'}",
                "{'$defs': {'a': {'$ref': '#/$defs/b'}, 'b': {'type': 'string'}}, '$ref': '#/$defs/a'}",
                "{'$ref': 'https://example.com/elsewhere.json'}",
                "{'const': {'$ref': '#'}, 'default': {'$ref': '#'}}",
                "{'$ref': '#/$defs/missing'}",
                "{'additionalProperties': {'$ref': '#'}}",
            })
    void leaves_schemas_that_descend_or_reach_outside(String schema) throws Exception {
        assertThat(SchemaRefCycles.find(json(schema))).isEmpty();
    }

    @Test
    void a_long_chain_of_references_costs_no_stack() throws Exception {
        StringBuilder defs = new StringBuilder("{\"$defs\": {");
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            defs.append("\"d")
                    .append(i)
                    .append("\": {\"$ref\": \"#/$defs/d")
                    .append((i + 1) % n)
                    .append("\"},");
        }
        defs.setLength(defs.length() - 1);
        defs.append("}}");
        assertThat(SchemaRefCycles.find(MAPPER.readTree(defs.toString()))).isPresent();
    }

    @Test
    void the_message_names_the_reference_and_where_it_leads() throws Exception {
        assertThat(SchemaRefCycles.find(json("{'$defs': {'a': {'$ref': '#/$defs/a'}}}"))
                        .orElseThrow()
                        .message())
                .isEqualTo("its $ref at /$defs/a/$ref leads back to /$defs/a without going deeper into the value"
                        + " (a $ref cycle): no value could ever be checked");
    }
}
