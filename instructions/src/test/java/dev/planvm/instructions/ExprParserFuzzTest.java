package dev.planvm.instructions;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.planvm.instructions.expr.Expr;
import dev.planvm.instructions.expr.ExprParser;
import dev.planvm.instructions.expr.ExprSyntaxException;
import dev.planvm.instructions.expr.Exprs;
import dev.planvm.instructions.expr.Template;
import java.nio.charset.StandardCharsets;

/**
 * The {@code ${...}} parser reads text an LLM wrote: on any text it either parses or throws an
 * {@link ExprSyntaxException} with an offset inside the text; nothing else escapes, nothing hangs.
 * A parsed expression renders to text that parses to the same rendering (the documented property
 * of {@link Exprs#render}). Seeds: {@code ExprParserFuzzTestInputs} (every operator, every builtin,
 * templates with escapes).
 */
class ExprParserFuzzTest {

    @FuzzTest(maxDuration = "30s")
    void any_text_parses_or_fails_with_a_located_syntax_error(byte[] bytes) {
        String text = new String(bytes, StandardCharsets.UTF_8);
        Expr expr = null;
        try {
            expr = ExprParser.parse(text);
        } catch (ExprSyntaxException e) {
            checkOffset(e, text);
        }
        if (expr != null) {
            checkRendering(text, Exprs.render(expr));
        }
        try {
            Template template = Template.parse(text);
            template.variables();
            template.isSingleRef();
        } catch (ExprSyntaxException e) {
            checkOffset(e, text);
        }
    }

    private static void checkRendering(String text, String rendered) {
        String again;
        try {
            again = Exprs.render(ExprParser.parse(rendered));
        } catch (ExprSyntaxException e) {
            throw new AssertionError("'" + text + "' renders as '" + rendered + "', which does not parse", e);
        }
        if (!again.equals(rendered)) {
            throw new AssertionError("'" + text + "' renders as '" + rendered + "', which renders as '" + again + "'");
        }
    }

    private static void checkOffset(ExprSyntaxException e, String text) {
        if (e.offset() < 0 || e.offset() > text.length() || e.getMessage().isBlank()) {
            throw new AssertionError(
                    "syntax error at offset " + e.offset() + " of " + text.length() + " characters: '" + e.getMessage()
                            + "'",
                    e);
        }
    }
}
