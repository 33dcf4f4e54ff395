package dev.planvm.agent.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.PlanSchemas;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * The plan schema in the form OpenAI's strict structured outputs accept ({@code planvm schema
 * --strict-llm}), derived from the plan schema resource ({@link PlanSchemas#planSchema()}), never
 * written by hand, and the way back from an answer in that form to a plan.
 *
 * <p>Strict mode wants a root object, every property required, {@code additionalProperties: false}
 * on every object, and none of {@code allOf}, {@code if}/{@code then}, {@code oneOf}, {@code not},
 * {@code dependentRequired}, {@code propertyNames}, {@code uniqueItems}, {@code pattern} or numeric
 * bounds. The derivation:
 * <ul>
 *   <li>the root is the {@code {"plan": [...]}} form of the plan;</li>
 *   <li>an instruction, whose parameters depend on its {@code type} ({@code if}/{@code then}), is an
 *       {@code anyOf} of one object per type;</li>
 *   <li>a property that was optional is required and nullable: {@code null} stands for "absent";</li>
 *   <li>an object with free keys (assign parameters, tool params) is written as its entries,
 *       {@code {"entries": [{"name": "query", "value": "TiDB"}]}}, in order, and a value of any type
 *       is one of text, number, boolean, null, an array of values or such an object;</li>
 *   <li>the checks strict mode cannot express are left to the loader, which reports them (and the
 *       agent sends them back for repair).</li>
 * </ul>
 * {@link #decode} turns an answer in this form back into a plan document; {@link #encode} does the
 * opposite (tests and benchmarks write plans as a strict answer would).
 */
public final class StrictPlanSchema {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String DEFS = "#/$defs/";
    private static final String VALUE = "jsonValue";
    private static final String OBJECT = "jsonObject";
    private static final String ENTRY = "entry";

    private final ObjectNode original;
    private final ObjectNode defs;
    private final ObjectNode strict;

    private StrictPlanSchema() {
        this.original = (ObjectNode) PlanSchemas.planSchema();
        this.defs = (ObjectNode) original.get("$defs");
        this.strict = derive();
    }

    private static final class Holder {
        static final StrictPlanSchema INSTANCE = new StrictPlanSchema();
    }

    /** The strict schema (a fresh copy). */
    public static ObjectNode schema() {
        return Holder.INSTANCE.strict.deepCopy();
    }

    /**
     * The plan document an answer in the strict form stands for: entries become objects and
     * {@code null}s of optional properties are dropped. Anything that is not in the strict form is
     * returned as it is, for the loader to report.
     */
    public static JsonNode decode(JsonNode answer) {
        StrictPlanSchema schemas = Holder.INSTANCE;
        if (answer != null && answer.isObject() && answer.path("plan").isArray()) {
            ObjectNode plan = JSON.objectNode();
            plan.set("plan", schemas.decodeInstructions(answer.get("plan")));
            return plan;
        }
        return answer != null && answer.isArray() ? schemas.decodeInstructions(answer) : answer;
    }

    /** One instruction of an answer in the strict form, as {@link #decode} reads it. */
    public static JsonNode decodeInstruction(JsonNode instruction) {
        StrictPlanSchema schemas = Holder.INSTANCE;
        return schemas.decode(instruction, schemas.def("instruction"));
    }

    /** A plan document written in the strict form: {@code {"plan": [...]}}. */
    public static ObjectNode encode(JsonNode plan) {
        StrictPlanSchema schemas = Holder.INSTANCE;
        JsonNode instructions = plan.isArray() ? plan : plan.path("plan");
        ArrayNode list = JSON.arrayNode();
        instructions.forEach(i -> list.add(schemas.encode(i, schemas.def("instruction"))));
        ObjectNode answer = JSON.objectNode();
        answer.set("plan", list);
        return answer;
    }

    // ---- derivation ----

    private ObjectNode derive() {
        ObjectNode out = JSON.objectNode();
        out.put("type", "object");
        if (original.has("description")) {
            out.put("description", original.get("description").asText());
        }
        out.putObject("properties").putObject("plan").put("$ref", DEFS + "instructions");
        out.putArray("required").add("plan");
        out.put("additionalProperties", false);
        ObjectNode outDefs = out.putObject("$defs");
        for (Map.Entry<String, JsonNode> def : defs.properties()) {
            if (!isFreeForm(def.getValue())) {
                outDefs.set(
                        def.getKey(),
                        def.getKey().equals("instruction")
                                ? instruction(def.getValue())
                                : convert(def.getValue(), false));
            }
        }
        outDefs.set(VALUE, valueSchema());
        outDefs.set(OBJECT, objectSchema());
        outDefs.set(ENTRY, entrySchema());
        return out;
    }

    /** One variant per instruction type (from the {@code allOf} of {@code if type = X then parameters ...}). */
    private ObjectNode instruction(JsonNode schema) {
        ArrayNode variants = JSON.arrayNode();
        for (JsonNode rule : schema.path("allOf")) {
            String type = rule.at("/if/properties/type/const").asText();
            JsonNode then = rule.path("then");
            ObjectNode variant = JSON.objectNode();
            variant.put("type", "object");
            ObjectNode properties = variant.putObject("properties");
            ArrayNode required = variant.putArray("required");
            Set<String> requiredHere = names(schema.path("required"));
            requiredHere.addAll(names(then.path("required")));
            for (Map.Entry<String, JsonNode> property :
                    schema.path("properties").properties()) {
                String name = property.getKey();
                JsonNode propertySchema = then.path("properties").has(name)
                        ? then.path("properties").get(name)
                        : property.getValue();
                JsonNode converted = name.equals("type")
                        ? JSON.objectNode()
                                .put("type", "string")
                                .<ObjectNode>set("enum", JSON.arrayNode().add(type))
                        : convert(propertySchema, !requiredHere.contains(name));
                properties.set(name, converted);
                required.add(name);
            }
            variant.put("additionalProperties", false);
            variants.add(variant);
        }
        ObjectNode out = JSON.objectNode();
        out.set("anyOf", variants);
        return out;
    }

    /** A schema as strict mode accepts it; {@code optional}: also {@code null} (standing for "absent"). */
    private JsonNode convert(JsonNode schema, boolean optional) {
        ObjectNode out;
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().substring(DEFS.length());
            out = JSON.objectNode().put("$ref", DEFS + (isFreeForm(def(name)) ? OBJECT : name));
        } else if (isFreeForm(schema)) {
            out = JSON.objectNode().put("$ref", DEFS + OBJECT);
        } else if (!schema.has("type")) {
            out = JSON.objectNode().put("$ref", DEFS + VALUE);
        } else if (schema.get("type").isArray()) {
            ArrayNode anyOf = JSON.arrayNode();
            for (JsonNode type : schema.get("type")) {
                anyOf.add(typed(schema, type.asText()));
            }
            out = JSON.objectNode();
            out.set("anyOf", anyOf);
        } else {
            out = typed(schema, schema.get("type").asText());
        }
        if (schema.has("description")) {
            if (out.has("$ref")) {
                ObjectNode described = JSON.objectNode();
                described.putArray("anyOf").add(out);
                out = described;
            }
            out.put("description", schema.get("description").asText());
        }
        return optional ? nullable(out) : out;
    }

    /** {@code schema} restricted to one of its types. */
    private ObjectNode typed(JsonNode schema, String type) {
        ObjectNode out = JSON.objectNode().put("type", type);
        switch (type) {
            case "object" -> {
                ObjectNode properties = out.putObject("properties");
                ArrayNode required = out.putArray("required");
                Set<String> requiredHere = names(schema.path("required"));
                for (Map.Entry<String, JsonNode> property :
                        schema.path("properties").properties()) {
                    properties.set(
                            property.getKey(), convert(property.getValue(), !requiredHere.contains(property.getKey())));
                    required.add(property.getKey());
                }
                out.put("additionalProperties", false);
            }
            case "array" ->
                out.set(
                        "items",
                        schema.has("items")
                                ? convert(schema.get("items"), false)
                                : JSON.objectNode().put("$ref", DEFS + VALUE));
            case "string" -> {
                if (schema.has("enum")) {
                    out.set("enum", schema.get("enum"));
                }
            }
            default -> {
                // numbers and booleans: no bounds in strict mode (the loader checks them)
            }
        }
        return out;
    }

    private static ObjectNode nullable(ObjectNode schema) {
        if (schema.path("type").isTextual() && !schema.has("enum")) {
            schema.set("type", JSON.arrayNode().add(schema.get("type").asText()).add("null"));
            return schema;
        }
        if (schema.path("anyOf").isArray() && !schema.has("$ref")) {
            ((ArrayNode) schema.get("anyOf")).addObject().put("type", "null");
            return schema;
        }
        ObjectNode out = JSON.objectNode();
        out.putArray("anyOf").add(schema).addObject().put("type", "null");
        return out;
    }

    private static ObjectNode valueSchema() {
        ObjectNode value = JSON.objectNode();
        value.put("description", "Any JSON value; an object is written as its entries.");
        ArrayNode anyOf = value.putArray("anyOf");
        anyOf.addObject().put("type", "string");
        anyOf.addObject().put("type", "number");
        anyOf.addObject().put("type", "boolean");
        anyOf.addObject().put("type", "null");
        anyOf.addObject().put("type", "array").putObject("items").put("$ref", DEFS + VALUE);
        anyOf.addObject().put("$ref", DEFS + OBJECT);
        return value;
    }

    private static ObjectNode objectSchema() {
        ObjectNode object = JSON.objectNode();
        object.put("type", "object");
        object.put("description", "An object with free keys, written as its entries (name and value) in order.");
        object.putObject("properties")
                .putObject("entries")
                .put("type", "array")
                .putObject("items")
                .put("$ref", DEFS + ENTRY);
        object.putArray("required").add("entries");
        object.put("additionalProperties", false);
        return object;
    }

    private static ObjectNode entrySchema() {
        ObjectNode entry = JSON.objectNode();
        entry.put("type", "object");
        ObjectNode properties = entry.putObject("properties");
        properties.putObject("name").put("type", "string");
        properties.putObject("value").put("$ref", DEFS + VALUE);
        entry.putArray("required").add("name").add("value");
        entry.put("additionalProperties", false);
        return entry;
    }

    // ---- decoding and encoding, guided by the original schema ----

    private ArrayNode decodeInstructions(JsonNode list) {
        ArrayNode out = JSON.arrayNode();
        list.forEach(i -> out.add(decode(i, def("instruction"))));
        return out;
    }

    private JsonNode decode(JsonNode node, JsonNode declared) {
        JsonNode schema = resolve(declared);
        if (schema == null || node == null) {
            return node == null ? NullNode.getInstance() : generic(node);
        }
        if (schema.has("properties") && node.isObject()) {
            ObjectNode out = JSON.objectNode();
            Set<String> required = requiredFor(schema, node);
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                if (field.getValue().isNull() && !required.contains(field.getKey())) {
                    continue; // null stands for an optional property left out
                }
                out.set(field.getKey(), decode(field.getValue(), propertySchema(schema, node, field.getKey())));
            }
            return out;
        }
        if (isFreeForm(schema) || !schema.has("type")) {
            return generic(node);
        }
        if (node.isArray() && schema.has("items")) {
            ArrayNode out = JSON.arrayNode();
            node.forEach(item -> out.add(decode(item, schema.get("items"))));
            return out;
        }
        return node;
    }

    /** A value of any type: entries become objects, arrays are walked, anything else stays. */
    private static JsonNode generic(JsonNode node) {
        if (node.isObject() && node.size() == 1 && node.path("entries").isArray()) {
            ObjectNode out = JSON.objectNode();
            for (JsonNode entry : node.get("entries")) {
                if (entry.path("name").isTextual()) {
                    out.set(entry.get("name").asText(), generic(entry.path("value")));
                }
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.arrayNode();
            node.forEach(item -> out.add(generic(item)));
            return out;
        }
        return node;
    }

    private JsonNode encode(JsonNode node, JsonNode declared) {
        JsonNode schema = resolve(declared);
        if (schema != null && schema.has("properties") && node.isObject()) {
            ObjectNode out = JSON.objectNode();
            for (Iterator<String> it = schema.path("properties").fieldNames(); it.hasNext(); ) {
                String name = it.next();
                out.set(
                        name,
                        node.has(name)
                                ? encode(node.get(name), propertySchema(schema, node, name))
                                : NullNode.getInstance());
            }
            return out;
        }
        if (schema != null && node.isArray() && schema.has("items") && !isFreeForm(schema)) {
            ArrayNode out = JSON.arrayNode();
            node.forEach(item -> out.add(encode(item, schema.get("items"))));
            return out;
        }
        if (schema == null || isFreeForm(schema) || !schema.has("type")) {
            return encodeGeneric(node);
        }
        return node;
    }

    private static JsonNode encodeGeneric(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JSON.objectNode();
            ArrayNode entries = out.putArray("entries");
            node.properties()
                    .forEach(field -> entries.addObject()
                            .put("name", field.getKey())
                            .set("value", encodeGeneric(field.getValue())));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.arrayNode();
            node.forEach(item -> out.add(encodeGeneric(item)));
            return out;
        }
        return node;
    }

    /** The schema of property {@code name} of {@code node}: an instruction's parameters depend on its type. */
    private JsonNode propertySchema(JsonNode schema, JsonNode node, String name) {
        for (JsonNode rule : schema.path("allOf")) {
            if (rule.at("/if/properties/type/const")
                            .asText()
                            .equals(node.path("type").asText())
                    && rule.at("/then/properties").has(name)) {
                return rule.at("/then/properties").get(name);
            }
        }
        return schema.path("properties").get(name);
    }

    private Set<String> requiredFor(JsonNode schema, JsonNode node) {
        Set<String> required = names(schema.path("required"));
        for (JsonNode rule : schema.path("allOf")) {
            if (rule.at("/if/properties/type/const")
                    .asText()
                    .equals(node.path("type").asText())) {
                required.addAll(names(rule.at("/then/required")));
            }
        }
        return required;
    }

    private JsonNode resolve(JsonNode schema) {
        JsonNode current = schema;
        for (int hops = 0; current != null && current.has("$ref") && hops < 10; hops++) {
            current = def(current.get("$ref").asText().substring(DEFS.length()));
        }
        return current;
    }

    private JsonNode def(String name) {
        return defs.get(name);
    }

    /** An object with no declared properties: its keys are free (assign parameters, tool params). */
    private static boolean isFreeForm(JsonNode schema) {
        return schema != null && "object".equals(schema.path("type").asText()) && !schema.has("properties");
    }

    private static Set<String> names(JsonNode array) {
        Set<String> names = new HashSet<>();
        array.forEach(n -> names.add(n.asText()));
        return names;
    }
}
