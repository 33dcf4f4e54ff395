package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** Seed 000's slots (lists) fitted to a tool's typed params schema. */
class JsonSchemasSlotsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void a_param_wants_one_value_when_its_type_is_not_array() throws Exception {
        JsonNode schema =
                json("{\"properties\": {\"s\": {\"type\": \"string\"}, \"n\": {\"type\": [\"integer\", \"null\"]},"
                        + " \"a\": {\"type\": \"array\"}, \"either\": {\"type\": [\"string\", \"array\"]}, \"any\": {},"
                        + " \"o\": {\"type\": \"object\"}}}");
        assertThat(JsonSchemas.oneValueParam(schema, "s")).isPresent();
        assertThat(JsonSchemas.oneValueParam(schema, "n")).isPresent();
        assertThat(JsonSchemas.oneValueParam(schema, "o")).isPresent();
        assertThat(JsonSchemas.oneValueParam(schema, "a")).isEmpty();
        assertThat(JsonSchemas.oneValueParam(schema, "either")).isEmpty();
        assertThat(JsonSchemas.oneValueParam(schema, "any")).isEmpty();
        assertThat(JsonSchemas.oneValueParam(schema, "missing")).isEmpty();
        assertThat(JsonSchemas.oneValueParam(json("{\"type\": \"object\"}"), "s"))
                .isEmpty();
    }

    @Test
    void a_list_of_one_passes_its_value_and_other_params_stay() throws Exception {
        JsonNode schema = json("{\"properties\": {\"s\": {\"type\": \"string\"}, \"a\": {\"type\": \"array\"}}}");
        assertThat(JsonSchemas.fitSlots("t", schema, json("{\"s\": [\"x\"], \"a\": [\"y\"], \"other\": [1]}")))
                .isEqualTo(json("{\"s\": \"x\", \"a\": [\"y\"], \"other\": [1]}"));
        JsonNode already = json("{\"s\": \"x\"}");
        assertThat(JsonSchemas.fitSlots("t", schema, already)).isSameAs(already);
    }

    @Test
    void a_list_of_another_length_is_refused_naming_slot_and_schema() throws Exception {
        JsonNode schema = json("{\"properties\": {\"s\": {\"type\": \"string\", \"enum\": [\"a\", \"b\"]}}}");
        assertThatThrownBy(() -> JsonSchemas.fitSlots("t", schema, json("{\"s\": []}")))
                .isInstanceOf(ToolException.class)
                .hasMessage("slot 's' holds 0 values, but tool 't' takes one value there (its params schema:"
                        + " {\"type\":\"string\",\"enum\":[\"a\",\"b\"]})");
    }
}
