package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.SchemaRefCycles;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a plan says about itself in the object form of a plan document (P1 accepts an object
 * wrapping the instructions as {@code plan}): a plan that names itself is a <em>plan tool</em>, which
 * other plans call with an ordinary {@code calling} step.
 *
 * <pre>{@code
 * {"name": "summarize_topic", "description": "Summarizes a topic in three sentences",
 *  "inputs": {"type": "object", "properties": {"topic": {"type": "string"}}, "required": ["topic"]},
 *  "output": {"type": "string"},
 *  "plan": [ ... ]}
 * }</pre>
 *
 * @param name        the tool name, or {@code null} for a plan that declares inputs without being a tool
 * @param description what the tool does, for listings and the planner ({@code ""} when absent)
 * @param inputs      the JSON Schema of the object of the plan's inputs (its properties are the
 *                    variables the plan is given), or {@code null} when it declares none
 * @param output      the JSON Schema its {@code final_answer} must meet, or {@code null}
 */
public record PlanSignature(String name, String description, JsonNode inputs, JsonNode output) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");
    private static final List<String> KEYS = List.of("name", "description", "inputs", "output");

    /** Whether {@code name} is a name a plan tool may give itself. */
    public static boolean isName(String name) {
        return NAME.matcher(name).matches();
    }

    /** The variables the plan declares as its inputs (the properties of {@link #inputs}), in order. */
    public Set<String> inputNames() {
        Set<String> names = new LinkedHashSet<>();
        if (inputs != null && inputs.path("properties").isObject()) {
            inputs.path("properties").fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    /** Whether the plan declares its inputs. */
    public boolean declaresInputs() {
        return inputs != null;
    }

    /** The signature of a valid plan's document, if it has one. */
    static Optional<PlanSignature> of(JsonNode document) {
        return Optional.ofNullable(read(document, new ArrayList<>()));
    }

    /**
     * Reads and checks the signature keys of a plan document; each problem is appended to {@code out},
     * located by its JSON pointer. Returns {@code null} when the document has none of them.
     */
    static PlanSignature read(JsonNode document, List<Diagnostic> out) {
        if (!document.isObject() || KEYS.stream().noneMatch(document::has)) {
            return null;
        }
        String name = null;
        JsonNode nameNode = document.get("name");
        if (nameNode != null) {
            if (!nameNode.isTextual() || !NAME.matcher(nameNode.asText()).matches()) {
                out.add(Diagnostic.error(
                        null,
                        "/name",
                        "a plan tool's name must be a tool name (a letter or _, then letters, digits, _, . or -;"
                                + " at most 64), not " + describe(nameNode)));
            } else {
                name = nameNode.asText();
            }
        }
        JsonNode descriptionNode = document.get("description");
        if (descriptionNode != null && !descriptionNode.isTextual()) {
            out.add(Diagnostic.error(
                    null, "/description", "description must be text, not " + describe(descriptionNode)));
        }
        JsonNode inputs = document.get("inputs");
        if (inputs != null) {
            checkInputs(inputs, out);
        }
        JsonNode output = document.get("output");
        if (output != null && !output.isObject() && !output.isBoolean()) {
            out.add(Diagnostic.error(
                    null, "/output", "output must be a JSON Schema (an object), not " + describe(output)));
        }
        refuseCycle(inputs, "/inputs", out);
        refuseCycle(output, "/output", out);
        String description = descriptionNode != null && descriptionNode.isTextual() ? descriptionNode.asText() : "";
        return new PlanSignature(name, description, inputs, output);
    }

    /**
     * An error for a schema with a {@code $ref} cycle, located at the reference: a validator would overflow its
     * stack on every call (or answer) checked against it.
     */
    static void refuseCycle(JsonNode schema, String pointer, List<Diagnostic> out) {
        SchemaRefCycles.find(schema)
                .ifPresent(cycle -> out.add(Diagnostic.error(
                        null, pointer + cycle.pointer(), "this schema cannot be used: " + cycle.message())));
    }

    private static void checkInputs(JsonNode inputs, List<Diagnostic> out) {
        if (!inputs.isObject()) {
            out.add(Diagnostic.error(
                    null,
                    "/inputs",
                    "inputs must be the JSON Schema of an object ({\"type\": \"object\", \"properties\": {...}}), not "
                            + describe(inputs)));
            return;
        }
        JsonNode type = inputs.get("type");
        if (type != null && !"object".equals(type.asText())) {
            out.add(Diagnostic.error(
                    null, "/inputs/type", "inputs describe an object of named inputs: type must be \"object\""));
        }
        JsonNode properties = inputs.get("properties");
        if (properties != null && !properties.isObject()) {
            out.add(Diagnostic.error(
                    null, "/inputs/properties", "properties must map each input's name to its schema"));
        }
        JsonNode required = inputs.get("required");
        if (required != null) {
            if (!required.isArray()) {
                out.add(Diagnostic.error(null, "/inputs/required", "required must be an array of input names"));
                return;
            }
            for (int i = 0; i < required.size(); i++) {
                String input = required.get(i).asText();
                if (properties == null || !properties.has(input)) {
                    out.add(Diagnostic.error(
                            null,
                            "/inputs/required/" + i,
                            "'" + input + "' is required but is not one of the inputs' properties"));
                }
            }
        }
    }

    private static String describe(JsonNode node) {
        return node.isTextual() ? "'" + node.asText() + "'" : PlanLoader.kind(node);
    }
}
