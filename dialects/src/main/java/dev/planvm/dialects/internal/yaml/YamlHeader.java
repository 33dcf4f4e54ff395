package dev.planvm.dialects.internal.yaml;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Problems;
import dev.planvm.dialects.internal.ToolHeader;
import dev.planvm.dialects.internal.YamlScalars;

/**
 * The plan-tool header of a YAML plan: a first YAML document, before the plan's, holding
 * {@code name}, {@code description}, {@code inputs} and {@code output}, as a PPE script's front matter
 * does. Its schemas are read with YAML 1.2's core schema for plain values ({@code 3} is a number,
 * {@code true} a boolean; quoted values are text), unlike the plan's slot values, which stay text.
 *
 * <pre>{@code
 * name: flight_status
 * description: The status of a flight
 * inputs:
 *   type: object
 *   properties:
 *     flight: {type: string}
 *   required: [flight]
 * ---
 * result:
 *   flights:
 *     flight: ${flight}
 * }</pre>
 */
final class YamlHeader {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private YamlHeader() {}

    /** Whether a document looks like a header: a mapping with a {@code name} key. */
    static boolean isHeader(YNode document) {
        return document instanceof YNode.Mapping m
                && m.entries().stream().anyMatch(e -> e.key().value().equals("name"));
    }

    /**
     * The header. Each problem is reported at its line (and then the plan does not compile); the inputs it
     * declares are still readable, so that the plan's uses of them are not reported too.
     */
    static ToolHeader read(YNode.Mapping header, Problems problems) {
        String name = null;
        String description = null;
        ObjectNode inputs = null;
        JsonNode output = null;
        for (YNode.Entry entry : header.entries()) {
            YNode value = entry.value();
            switch (entry.key().value()) {
                case "name" -> {
                    name = text(value, "name", problems);
                    if (name != null) {
                        ToolHeader.checkName(name, value.pos(), problems);
                    }
                }
                case "description" -> {
                    description = text(value, "description", problems);
                }
                case "inputs" -> {
                    JsonNode schema = json(value);
                    ToolHeader.checkInputs(schema, value.pos(), problems);
                    inputs = schema instanceof ObjectNode object ? object : null;
                }
                case "output" -> {
                    output = json(value);
                    ToolHeader.checkOutput(output, value.pos(), problems);
                }
                default ->
                    problems.error(
                            entry.key().pos(),
                            "'" + entry.key().value() + "' is not part of a plan-tool header: it holds name,"
                                    + " description, inputs and output (the plan's aliases go in the document"
                                    + " after '---')");
            }
        }
        return new ToolHeader(name, description, inputs, output);
    }

    private static String text(YNode value, String key, Problems problems) {
        if (value instanceof YNode.Scalar s && !s.empty()) {
            return s.value();
        }
        problems.error(value.pos(), "the header's " + key + " must be text");
        return null;
    }

    /** {@code node} as JSON: plain scalars typed by YAML 1.2's core schema, quoted ones text. */
    static JsonNode json(YNode node) {
        if (node instanceof YNode.Scalar s) {
            return typed(s);
        }
        if (node instanceof YNode.Sequence seq) {
            ArrayNode array = JSON.arrayNode();
            seq.items().forEach(item -> array.add(json(item)));
            return array;
        }
        ObjectNode object = JSON.objectNode();
        ((YNode.Mapping) node).entries().forEach(e -> object.set(e.key().value(), json(e.value())));
        return object;
    }

    private static JsonNode typed(YNode.Scalar s) {
        JsonNode typed = s.plain() ? YamlScalars.typed(s.value()) : null;
        return typed != null ? typed : JSON.textNode(s.value());
    }
}
