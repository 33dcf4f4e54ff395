package dev.planvm.vm.internal.handlers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.OutputVars;
import dev.planvm.json.JsonPreview;
import dev.planvm.json.JsonText;
import dev.planvm.vm.run.StepFailure;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stores a tool's output in {@code output_vars} (DESIGN P9):
 * <ul>
 *   <li>a string name stores the whole output;</li>
 *   <li>an array of two or more names needs a JSON object output, or text holding one (the first
 *       object, ```json fences allowed); each name is read from it, and a missing one is an error
 *       that lists what the output had;</li>
 *   <li>an array of one name stores that key's value when the output is (or holds) an object with
 *       that key, and the whole output otherwise (this keeps real StackVM plans working);</li>
 *   <li>no {@code output_vars} (or an empty array) stores nothing; the output is in the trace.</li>
 * </ul>
 */
public final class OutputBinding {

    private OutputBinding() {}

    /** The variables the output sets, in order; a {@link StepFailure} when it cannot fill them. */
    public static Map<String, JsonNode> values(String tool, OutputVars outputVars, JsonNode output) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        if (outputVars instanceof OutputVars.Whole whole) {
            values.put(whole.name(), output);
            return values;
        }
        List<String> names = outputVars.names();
        if (names.isEmpty()) {
            return values;
        }
        ObjectNode object = asObject(output);
        if (names.size() == 1) {
            String name = names.get(0);
            values.put(name, object != null && object.has(name) ? object.get(name) : output);
            return values;
        }
        if (object == null) {
            throw new StepFailure("tool '" + tool + "' returned " + preview(output) + ", with no JSON object holding "
                    + String.join(", ", names) + " (output_vars)");
        }
        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (!object.has(name)) {
                missing.add(name);
            }
        }
        if (!missing.isEmpty()) {
            List<String> had = new ArrayList<>();
            object.fieldNames().forEachRemaining(had::add);
            throw new StepFailure("the output of tool '" + tool + "' has no " + quoted(missing) + " (it has: "
                    + (had.isEmpty() ? "no keys" : String.join(", ", had)) + ")");
        }
        for (String name : names) {
            values.put(name, object.get(name));
        }
        return values;
    }

    private static ObjectNode asObject(JsonNode output) {
        if (output instanceof ObjectNode object) {
            return object;
        }
        return output.isTextual() ? JsonText.findObject(output.asText()).orElse(null) : null;
    }

    private static String quoted(List<String> names) {
        return (names.size() == 1 ? "key " : "keys ") + "'" + String.join("', '", names) + "'";
    }

    /** The start of the output, built without rendering the rest (an output can be huge). */
    private static String preview(JsonNode output) {
        String kind = output.isTextual() ? "text" : output.getNodeType().name().toLowerCase();
        return kind + " \"" + shown(output, 80) + "\"";
    }

    /** The start of {@code value} for a message: text as is, anything else as compact JSON, cut after {@code max} characters. */
    static String shown(JsonNode value, int max) {
        return value.isTextual() ? JsonPreview.cut(value.textValue(), max) : JsonPreview.compact(value, max);
    }
}
