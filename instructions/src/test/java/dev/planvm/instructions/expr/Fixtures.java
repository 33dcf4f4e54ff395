package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Small helpers shared by the evaluator tests. */
final class Fixtures {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Fixtures() {}

    /** {@code text} parsed as JSON (single quotes allowed for readability). */
    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad test JSON: " + text, e);
        }
    }

    /** The variables of a JSON object given as text. */
    static Variables vars(String object) {
        JsonNode values = json(object);
        return values::get;
    }

    /** Evaluates {@code expression} with the variables of {@code object}. */
    static JsonNode eval(String expression, String object) {
        return Evaluator.evaluate(ExprParser.parse(expression), vars(object));
    }

    /** Evaluates {@code expression} with no variables set. */
    static JsonNode eval(String expression) {
        return eval(expression, "{}");
    }

    /** {@code value} parsed as a template; a syntax error fails the test. */
    static ValueTemplate template(JsonNode value) {
        return ValueTemplate.parse(value, "", p -> fail("syntax error in test template: " + p));
    }
}
