package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.List;

/**
 * JSON Schema checks of untrusted schemas and values (a tool's params schema, an {@code llm_generate}
 * answer schema, a plan tool's output): draft 2020-12, and a {@code $ref} is resolved inside the schema
 * only, never fetched (no file, no network). The one place planvm compiles such schemas.
 */
public final class JsonSchemas {

    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(
            SpecificationVersion.DRAFT_2020_12,
            builder -> builder.schemaLoader(
                    loader -> loader.fetchRemoteResources(false).block(iri -> isExternal(iri.toString()))));

    private JsonSchemas() {}

    /** {@code schema} compiled (compile once and keep it for a schema checked often). */
    public static Schema compile(JsonNode schema) {
        return REGISTRY.getSchema(schema);
    }

    /** Why {@code value} does not fit {@code schema}, at most {@code max} sentences; empty when it fits. */
    public static List<String> problems(Schema schema, JsonNode value, int max) {
        return schema.validate(value).stream()
                .limit(max)
                .map(JsonSchemas::describe)
                .toList();
    }

    /** One violation as a sentence: where in the value, and what is wrong. */
    public static String describe(Error error) {
        String at = error.getInstanceLocation().toString();
        return (at.isEmpty() ? "" : at + " ") + error.getMessage();
    }

    /** A reference outside the schema (the meta-schemas the library carries are not). */
    private static boolean isExternal(String iri) {
        return !iri.startsWith("https://json-schema.org/");
    }
}
