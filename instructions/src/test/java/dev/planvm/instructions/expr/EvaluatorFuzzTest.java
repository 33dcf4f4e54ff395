package dev.planvm.instructions.expr;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Expressions come from plans an LLM wrote: whatever parses must evaluate to a value or fail with
 * an {@link EvaluationException}, never another exception, a stack overflow or a hang. The text is
 * tried as one expression and as a template, both through the interpolator with a string limit
 * (as a run does), over fixed variables of every kind: text holding JSON (bare and fenced),
 * numbers, nested objects and arrays, and a run clock, so the date/time helpers (a
 * {@code DateTimeException} must never escape them) are fuzzed too. Seeds: {@code EvaluatorFuzzTestInputs}.
 */
class EvaluatorFuzzTest {

    private static final int MAX_STRING_LENGTH = 100_000;

    private static final JsonNode VARIABLES = Fixtures.json("""
            {"doc": "{\\"items\\": [{\\"name\\": \\"a\\", \\"score\\": 0.5}, {\\"name\\": \\"b\\", \\"score\\": 2}], \\"total\\": 2}",
             "fenced": "Here you are:\\n```json\\n{\\"ok\\": true, \\"list\\": [1, 2, 3]}\\n```\\nDone.",
             "s": "Hello, World", "empty": "", "uni": "h\\u00e9llo \\ud83c\\udf0d", "num_text": " 12.5 ",
             "n": 42, "pi": 3.14159, "big": 9007199254740993, "neg": -7, "zero": 0, "huge": 1e308,
             "t": true, "f": false, "nul": null,
             "obj": {"a": {"b": [1, "two", null, true, {"c": []}]}, "k y": "v", "": 0},
             "arr": [1, 2.5, "x", null, [1, [2]], {"k": "v"}],
             "nums": [3, -1, 2.5, 1e21]}""");

    /** The variables with a clock on the night the clocks go forward in Oslo, so the date/time helpers run too. */
    private static final Variables VARS = Variables.of(
            VARIABLES::get,
            new RunClock(java.time.Instant.parse("2026-03-29T00:30:00Z"), java.time.ZoneId.of("Europe/Oslo")));

    @FuzzTest(maxDuration = "30s")
    void any_expression_evaluates_or_fails_with_an_evaluation_error(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        Expr expr = parseOrNull(text);
        if (expr != null) {
            interpolate(new Template("${" + text + "}", List.of(new Template.Ref(expr, text, 0))));
        }
        try {
            interpolate(Template.parse(text));
        } catch (ExprSyntaxException notATemplate) {
            // nothing to evaluate
        }
    }

    private static void interpolate(Template template) {
        JsonNode value;
        try {
            value = Interpolator.interpolate(new ValueTemplate.StringTemplate(template), VARS, MAX_STRING_LENGTH);
        } catch (EvaluationException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                throw new AssertionError("an evaluation error without a message", e);
            }
            return;
        }
        if (value == null) {
            throw new AssertionError("null (not JSON null) for " + template.source());
        }
        long measured = RenderedLength.of(value, Long.MAX_VALUE);
        if (measured != Interpolator.render(value).length()) {
            throw new AssertionError("rendered length " + measured + " of " + value + " is wrong");
        }
        ValueSize.of(value, Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    private static Expr parseOrNull(String text) {
        try {
            return ExprParser.parse(text);
        } catch (ExprSyntaxException e) {
            return null;
        }
    }
}
