package dev.planvm.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;

/**
 * A variable set from text, {@code NAME=VALUE}: the one reading of {@code planvm run --var} and of
 * {@code @PlanTests(vars = ...)}. {@code VALUE} is JSON when it parses as JSON ({@code n=3},
 * {@code tags=["a"]}, {@code s="quoted"}), else the text itself ({@code topic=TiDB}).
 *
 * @param name  a variable name: letters, digits and {@code _}, not starting with a digit
 * @param value the value, one a stored run can keep ({@link JsonValues#problem})
 */
public record VariableAssignment(String name, JsonNode value) {

    /** Created on first use: a command that reads no variable never builds a mapper for it. */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);
    }

    /**
     * Reads {@code NAME=VALUE}.
     *
     * @throws IllegalArgumentException with a sentence saying what is wrong (the text itself is not
     *     repeated beyond the name: it may be long)
     */
    public static VariableAssignment parse(String text) {
        int eq = text.indexOf('=');
        String name = eq < 0 ? text : text.substring(0, eq);
        if (eq < 0 || !name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException(TerminalText.safe(text)
                    + ": expected NAME=VALUE with NAME made of letters, digits and _, not starting with a digit");
        }
        JsonNode value = value(text.substring(eq + 1));
        JsonValues.problem(value).ifPresent(problem -> {
            throw new IllegalArgumentException(
                    TerminalText.safe(name + ": " + problem + "; a stored run could not keep it"));
        });
        return new VariableAssignment(name, value);
    }

    /** {@code text} as JSON when it is one JSON value, else as text. */
    public static JsonNode value(String text) {
        try {
            JsonNode parsed = Json.MAPPER.readTree(text);
            if (parsed != null && !parsed.isMissingNode()) {
                return parsed;
            }
        } catch (IOException notJson) {
            // plain text
        }
        return TextNode.valueOf(text);
    }
}
