package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.llm.testing.StrictSchemaRules;
import dev.planvm.tools.ToolException;
import org.junit.jupiter.api.Test;

class SchemaFormsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Nested objects, an optional property, an array of objects, an enum, keywords strict mode refuses. */
    private static final String SCHEMA = """
            {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
             "properties": {
               "title": {"type": "string", "minLength": 3},
               "tag": {"type": "string", "enum": ["bug", "feature"]},
               "owner": {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}},
                         "required": ["name"]},
               "steps": {"type": "array", "items": {"type": "object", "properties": {"text": {"type": "string"}}}},
               "extra": {"$ref": "#/$defs/note"}},
             "required": ["title"],
             "$defs": {"note": {"type": "object", "properties": {"body": {"type": "string", "default": ""}}}}}""";

    private static ObjectNode schema() throws Exception {
        return (ObjectNode) MAPPER.readTree(SCHEMA);
    }

    @Test
    void the_openai_strict_form_follows_openais_rules_on_every_object() throws Exception {
        ObjectNode strict = SchemaForms.form(LlmProvider.OPENAI, schema());

        assertThat(StrictSchemaRules.problem(schema())).isNotNull(); // the plan's schema as it is: refused
        assertThat(StrictSchemaRules.problem(strict)).isNull();
        assertThat(strict.path("required")).hasSize(5);
        assertThat(strict.at("/properties/tag/type").toString()).isEqualTo("[\"string\",\"null\"]");
        assertThat(strict.at("/properties/tag/enum").toString()).isEqualTo("[\"bug\",\"feature\",null]");
        assertThat(strict.at("/properties/owner/type").toString()).isEqualTo("[\"object\",\"null\"]");
        assertThat(strict.at("/properties/owner/additionalProperties").asBoolean())
                .isFalse();
        assertThat(strict.at("/properties/owner/properties/email/type").toString())
                .isEqualTo("[\"string\",\"null\"]");
        assertThat(strict.at("/properties/steps/items/additionalProperties").asBoolean())
                .isFalse();
        assertThat(strict.at("/properties/extra/anyOf/1/type").asText()).isEqualTo("null");
        assertThat(strict.at("/$defs/note/additionalProperties").asBoolean()).isFalse();
        assertThat(strict.at("/properties/title/minLength").isMissingNode()).isTrue();
        assertThat(strict.at("/properties/title/description").asText()).contains("{\"minLength\": 3}");
        assertThat(strict.has("$schema")).isFalse();
    }

    @Test
    void the_nulls_a_strict_answer_gives_for_optional_properties_are_dropped() throws Exception {
        JsonNode answer = MAPPER.readTree("""
                {"title": "Fix it", "tag": null, "owner": {"name": "Ann", "email": null},
                 "steps": [{"text": null}], "extra": null}""");

        JsonNode restored = SchemaForms.restore(LlmProvider.OPENAI, schema(), answer);

        assertThat(restored)
                .isEqualTo(MAPPER.readTree("{\"title\": \"Fix it\", \"owner\": {\"name\": \"Ann\"}, \"steps\": [{}]}"));
    }

    @Test
    void a_null_the_plans_schema_allows_is_kept() throws Exception {
        ObjectNode nullable = (ObjectNode) MAPPER.readTree(
                "{\"type\": \"object\", \"properties\": {\"note\": {\"type\": [\"string\", \"null\"]}}}");

        JsonNode restored = SchemaForms.restore(LlmProvider.OPENAI, nullable, MAPPER.readTree("{\"note\": null}"));

        assertThat(restored).isEqualTo(MAPPER.readTree("{\"note\": null}"));
    }

    @Test
    void anthropics_form_closes_objects_and_leaves_bounds_to_the_description() throws Exception {
        ObjectNode form = SchemaForms.form(LlmProvider.ANTHROPIC, schema());

        assertThat(form.path("additionalProperties").asBoolean()).isFalse();
        assertThat(form.at("/properties/owner/additionalProperties").asBoolean())
                .isFalse();
        assertThat(form.path("required").toString()).isEqualTo("[\"title\"]"); // optional stays optional
        assertThat(form.at("/properties/title/minLength").isMissingNode()).isTrue();
    }

    @Test
    void anthropic_refuses_a_recursive_schema_naming_itself_and_the_feature() throws Exception {
        ObjectNode tree = (ObjectNode) MAPPER.readTree("""
                {"type": "object", "properties": {"root": {"$ref": "#/$defs/node"}},
                 "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array",
                   "items": {"$ref": "#/$defs/node"}}}}}}""");

        assertThatThrownBy(() -> SchemaForms.form(LlmProvider.ANTHROPIC, tree))
                .isInstanceOf(ToolException.class)
                .hasMessage("anthropic: structured output does not take a recursive JSON Schema ($defs/node refers to"
                        + " itself); give response_format \"json\" instead");
    }

    @Test
    void ollama_takes_the_schema_as_it_is() throws Exception {
        ObjectNode form = SchemaForms.form(LlmProvider.OLLAMA, schema());

        ObjectNode expected = schema();
        expected.remove("$schema");
        assertThat(form).isEqualTo(expected);
    }
}
