package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Interpolates {@code ${expr}} references in JSON values (DESIGN P5).
 *
 * <p>A string that is exactly one {@code ${expr}} yields the expression's value with its JSON type
 * kept ({@code "${n}"} with n = 42 is the number 42; an object stays an object). A reference
 * embedded in other text is rendered: text as is, numbers JavaScript-style, everything else as
 * compact JSON, {@code null} as {@code null}. <code>$${</code> is a literal <code>${</code>. Objects and
 * arrays are walked; subtrees without references are returned as they are (values are treated as
 * immutable, never copied).
 *
 * <p>Strings are bounded (a plan is untrusted, and a loop can double a string at every pass): a
 * string of text and references longer than the limit is an {@link EvaluationException} raised
 * before the string is built, its length computed from the values' lengths. A single
 * {@code ${expr}} that computes text ({@code ${s + s}}, {@code ${join(xs)}}) is held to the same
 * limit once the evaluator has computed it; reading a variable, a path or a literal is not
 * computing, so {@code ${doc}} passes a long text on as it is.
 */
public final class Interpolator {

    /** The longest string interpolation builds unless told otherwise: 1,000,000 characters. */
    public static final int DEFAULT_MAX_STRING_LENGTH = 1_000_000;

    private static final int SOURCE_SHOWN = 80;

    private Interpolator() {}

    /**
     * The value of {@code template} with every reference evaluated, no string longer than
     * {@link #DEFAULT_MAX_STRING_LENGTH}.
     *
     * @throws EvaluationException when a reference fails or a string would be too long
     */
    public static JsonNode interpolate(ValueTemplate template, Variables vars) {
        return interpolate(template, vars, DEFAULT_MAX_STRING_LENGTH);
    }

    /**
     * The value of {@code template} with every reference evaluated.
     *
     * @param maxStringLength the longest string (in UTF-16 characters) a template may build
     * @throws EvaluationException when a reference fails or a string would be longer than
     *     {@code maxStringLength}: {@code ${doc} + ${doc} built a string of 2,000,003 characters;
     *     the limit is 1,000,000}
     */
    public static JsonNode interpolate(ValueTemplate template, Variables vars, int maxStringLength) {
        if (template instanceof ValueTemplate.Constant constant) {
            return constant.value();
        }
        if (template instanceof ValueTemplate.StringTemplate stringTemplate) {
            return string(stringTemplate.template(), vars, maxStringLength);
        }
        if (template instanceof ValueTemplate.ObjectTemplate objectTemplate) {
            ObjectNode object = JsonNodeFactory.instance.objectNode();
            Map<String, ValueTemplate> fields = objectTemplate.fields();
            for (Map.Entry<String, ValueTemplate> field : fields.entrySet()) {
                object.set(field.getKey(), interpolate(field.getValue(), vars, maxStringLength));
            }
            return object;
        }
        ValueTemplate.ArrayTemplate arrayTemplate = (ValueTemplate.ArrayTemplate) template;
        ArrayNode array =
                JsonNodeFactory.instance.arrayNode(arrayTemplate.elements().size());
        for (ValueTemplate element : arrayTemplate.elements()) {
            array.add(interpolate(element, vars, maxStringLength));
        }
        return array;
    }

    private static JsonNode string(Template template, Variables vars, int max) {
        if (template.isSingleRef()) {
            Expr expr = ((Template.Ref) template.parts().get(0)).expr();
            JsonNode value = Evaluator.evaluate(expr, vars);
            if (value.isTextual() && value.textValue().length() > max && computes(expr)) {
                throw tooLong(template, value.textValue().length(), true, max);
            }
            return value;
        }
        List<JsonNode> values = new ArrayList<>();
        long length = 0;
        boolean exact = true;
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Text text) {
                length += text.text().length();
            } else {
                JsonNode value = Evaluator.evaluate(((Template.Ref) part).expr(), vars);
                long rendered = RenderedLength.of(value, max);
                exact &= rendered <= max || value.isTextual();
                length += rendered;
                values.add(value);
            }
        }
        if (length > max) {
            throw tooLong(template, length, exact, max);
        }
        StringBuilder sb = new StringBuilder((int) length);
        int next = 0;
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Text text) {
                sb.append(text.text());
            } else {
                sb.append(render(values.get(next++)));
            }
        }
        return TextNode.valueOf(sb.toString());
    }

    /** Whether the expression computes its value, rather than reading a variable, a path or a literal. */
    private static boolean computes(Expr expr) {
        if (expr instanceof Expr.Variable
                || expr instanceof Expr.Member
                || expr instanceof Expr.Index
                || expr instanceof Expr.Literal) {
            return false;
        }
        if (expr instanceof Expr.Binary b) {
            boolean picks = b.op() == BinaryOp.AND || b.op() == BinaryOp.OR;
            return !picks || computes(b.left()) || computes(b.right());
        }
        return true;
    }

    private static EvaluationException tooLong(Template template, long length, boolean exact, int max) {
        String source = template.source();
        String shown = source.length() <= SOURCE_SHOWN ? source : source.substring(0, SOURCE_SHOWN - 1) + "…";
        return EvaluationException.limit(shown + " built a string of " + (exact ? "" : "more than ")
                + count(exact ? length : max) + " characters; the limit is " + count(max));
    }

    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /**
     * The length of {@link #render} of {@code value}, computed without rendering it: exact, or some
     * figure above {@code limit} once it passes it (then the walk stops). Check it before rendering
     * a value that may be huge.
     */
    public static long renderedLength(JsonNode value, long limit) {
        return RenderedLength.of(value, limit);
    }

    /** Rendering of a value embedded in text: text as is; numbers JS-style; else compact JSON. */
    public static String render(JsonNode value) {
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isNumber()) {
            return JsNumbers.render(value);
        }
        if (value.isNull() || value.isMissingNode()) {
            return "null";
        }
        if (value.isBoolean()) {
            return value.booleanValue() ? "true" : "false";
        }
        return CompactJson.write(value);
    }
}
