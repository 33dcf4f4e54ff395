package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The plan-tool header of a YAML or JavaScript plan (its name, description and the JSON Schemas of its
 * inputs and output), read by the front end with the place of each part. A plan with a header compiles
 * to the plan-tool document {@code {"name", "description", "inputs", "output", "plan": [...]}}, as a
 * JSON plan tool is written; a plan without one compiles to the bare instruction array, as before.
 *
 * @param inputs null when the header declares none
 * @param output null when the header declares none
 */
public record ToolHeader(String name, String description, ObjectNode inputs, JsonNode output) {

    /** The names a plan tool may have (as {@code PlanSignature} reads them). */
    public static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** Whether {@code name} may name a plan tool; reports a located error when not. */
    public static boolean checkName(String name, Pos pos, Problems problems) {
        if (name == null || !NAME.matcher(name).matches()) {
            problems.error(
                    pos,
                    "the plan tool's name must be a letter or '_' followed by letters, digits, '_', '.' or '-'"
                            + " (at most 64 characters), not '" + name + "'");
            return false;
        }
        return true;
    }

    /**
     * Whether {@code inputs} is the JSON Schema of an object of named inputs ({@code type: object},
     * {@code properties}, {@code required} naming properties); reports each problem at {@code pos}.
     */
    public static boolean checkInputs(JsonNode inputs, Pos pos, Problems problems) {
        if (!inputs.isObject()) {
            problems.error(pos, "inputs must be the JSON Schema of an object (type: object, properties: ...)");
            return false;
        }
        boolean ok = true;
        if (inputs.has("type") && !"object".equals(inputs.get("type").asText(null))) {
            problems.error(pos, "inputs describe an object of named inputs: their type must be 'object'");
            ok = false;
        }
        JsonNode properties = inputs.get("properties");
        if (properties != null && !properties.isObject()) {
            problems.error(pos, "the properties of inputs must map each input's name to its schema");
            return false;
        }
        JsonNode required = inputs.get("required");
        if (required != null) {
            if (!required.isArray()) {
                problems.error(pos, "the required of inputs must be a list of input names");
                return false;
            }
            for (JsonNode input : required) {
                if (properties == null || !properties.has(input.asText())) {
                    problems.error(
                            pos, "'" + input.asText() + "' is required but is not one of the inputs' properties");
                    ok = false;
                }
            }
        }
        return ok;
    }

    /** Whether {@code output} is a JSON Schema (an object or a boolean); reports a located error when not. */
    public static boolean checkOutput(JsonNode output, Pos pos, Problems problems) {
        if (!output.isObject() && !output.isBoolean()) {
            problems.error(pos, "output must be a JSON Schema (a mapping such as type: string)");
            return false;
        }
        return true;
    }

    /** The names of the declared inputs, in order. */
    public Set<String> inputNames() {
        Set<String> names = new LinkedHashSet<>();
        if (inputs != null && inputs.path("properties").isObject()) {
            inputs.path("properties").fieldNames().forEachRemaining(names::add);
        }
        return names;
    }

    /** {@code options} with the declared inputs among the names the plan may read. */
    public FrontEndOptions readable(FrontEndOptions options) {
        Set<String> inputs = new HashSet<>(options.inputs());
        inputs.addAll(inputNames());
        return new FrontEndOptions(
                options.singleDomainResult(),
                options.unwrapSingleElement(),
                options.tools(),
                inputs,
                options.maxNesting(),
                options.maxAliases(),
                options.maxInstructions());
    }

    /** {@code compiled} with its plan wrapped in the plan-tool document; unchanged when it did not compile. */
    public CompileResult wrap(CompileResult compiled) {
        if (compiled.plan() == null) {
            return compiled;
        }
        ObjectNode document = JSON.objectNode();
        document.put("name", name);
        if (description != null) {
            document.put("description", description);
        }
        if (inputs != null) {
            document.set("inputs", inputs);
        }
        if (output != null) {
            document.set("output", output);
        }
        document.set("plan", compiled.plan());
        return new CompileResult(document, compiled.lineOfSeqNo(), compiled.diagnostics(), compiled.imports());
    }
}
