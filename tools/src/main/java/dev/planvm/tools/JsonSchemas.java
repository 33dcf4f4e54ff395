package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.planvm.json.SchemaRefCycles;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /**
     * {@code schema} compiled (compile once and keep it for a schema checked often).
     *
     * @throws IllegalArgumentException for a schema no value can be checked against: one with a {@code $ref}
     *     cycle ({@link SchemaRefCycles}), which would overflow the checking thread's stack on every value
     */
    public static Schema compile(JsonNode schema) {
        Optional<String> unusable = problem(schema);
        if (unusable.isPresent()) {
            throw new IllegalArgumentException("the schema cannot be used: " + unusable.get());
        }
        return REGISTRY.getSchema(schema);
    }

    /** Why no value can be checked against {@code schema} (a {@code $ref} cycle, located), or empty. */
    public static Optional<String> problem(JsonNode schema) {
        return SchemaRefCycles.find(schema).map(SchemaRefCycles.Cycle::message);
    }

    /**
     * Why {@code value} does not fit {@code schema}, at most {@code max} sentences; empty when it fits. A value
     * nested deeper than the checking thread's stack can follow through a recursive schema is a problem of its
     * own, never a {@link StackOverflowError}.
     */
    public static List<String> problems(Schema schema, JsonNode value, int max) {
        try {
            return errors(schema, value).stream()
                    .limit(max)
                    .map(JsonSchemas::describe)
                    .toList();
        } catch (IllegalArgumentException tooDeep) {
            return List.of(tooDeep.getMessage());
        }
    }

    /**
     * Every violation of {@code schema} by {@code value}, as the validator reports them.
     *
     * @throws IllegalArgumentException when the value is nested too deeply to be checked against a recursive
     *     schema on this thread's stack (the sentence says so)
     */
    public static List<Error> errors(Schema schema, JsonNode value) {
        try {
            return schema.validate(value);
        } catch (StackOverflowError tooDeep) { // a recursive schema follows the value's nesting, frame by frame
            throw new IllegalArgumentException(
                    "the value is nested too deeply to be checked against this schema, which follows its nesting");
        }
    }

    /** One violation as a sentence: where in the value, and what is wrong. */
    public static String describe(Error error) {
        String at = error.getInstanceLocation().toString();
        return (at.isEmpty() ? "" : at + " ") + error.getMessage();
    }

    /**
     * The schema of param {@code param} in a tool's params schema when it wants one value, not a list: it
     * declares a {@code type} that is not {@code array} (nor a list of types with {@code array} among them).
     * Empty for a param the schema does not describe, or describes without a type: a seed 000 slot
     * ({@link CallContext#slots()}) passes there as the list it is.
     */
    public static Optional<JsonNode> oneValueParam(JsonNode paramsSchema, String param) {
        JsonNode property =
                paramsSchema == null ? null : paramsSchema.path("properties").get(param);
        if (property == null || !property.isObject()) {
            return Optional.empty();
        }
        JsonNode type = property.get("type");
        boolean one = type != null && type.isTextual() && !type.asText().equals("array");
        if (type != null && type.isArray() && !type.isEmpty()) {
            one = true;
            for (JsonNode t : type) {
                one &= !t.asText().equals("array");
            }
        }
        return one ? Optional.of(property) : Optional.empty();
    }

    /**
     * Seed 000's slots fitted to a tool's params schema: each param that {@link #oneValueParam wants one
     * value} and holds a list of one gets that value; every other param stays as it is.
     *
     * @throws ToolException (not retriable) naming the slot and its schema when such a param holds a list
     *     of another length
     */
    public static JsonNode fitSlots(String tool, JsonNode paramsSchema, JsonNode params) {
        if (!params.isObject()) {
            return params;
        }
        ObjectNode fitted = null;
        for (Map.Entry<String, JsonNode> slot : params.properties()) {
            Optional<JsonNode> one = oneValueParam(paramsSchema, slot.getKey());
            if (one.isEmpty() || !slot.getValue().isArray()) {
                continue;
            }
            if (slot.getValue().size() != 1) {
                throw ToolException.permanent(
                        slotRefusal(tool, slot.getKey(), slot.getValue().size(), one.get()));
            }
            if (fitted == null) {
                fitted = ((ObjectNode) params).deepCopy();
            }
            fitted.set(slot.getKey(), slot.getValue().get(0));
        }
        return fitted == null ? params : fitted;
    }

    /**
     * Why a slot holding {@code values} values cannot feed a param that wants one: "slot 'city' holds 2
     * values, but tool 'weather' takes one value there (its params schema: {"type":"string"})".
     */
    public static String slotRefusal(String tool, String slot, int values, JsonNode paramSchema) {
        String schema = paramSchema.toString();
        if (schema.length() > 200) {
            schema = schema.substring(0, 200) + "...";
        }
        return "slot '" + slot + "' holds " + values + (values == 1 ? " value" : " values") + ", but tool '" + tool
                + "' takes one value there (its params schema: " + schema + ")";
    }

    /** A reference outside the schema (the meta-schemas the library carries are not). */
    private static boolean isExternal(String iri) {
        return !iri.startsWith("https://json-schema.org/");
    }
}
