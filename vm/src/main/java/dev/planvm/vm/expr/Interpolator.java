package dev.planvm.vm.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.planvm.instructions.expr.Template;
import dev.planvm.instructions.expr.ValueTemplate;
import java.util.Map;

/**
 * Interpolates {@code ${expr}} references in JSON values (DESIGN P5).
 *
 * <p>A string that is exactly one {@code ${expr}} yields the expression's value with its JSON type
 * kept ({@code "${n}"} with n = 42 is the number 42; an object stays an object). A reference
 * embedded in other text is rendered: text as is, numbers JavaScript-style, everything else as
 * compact JSON, {@code null} as {@code null}. {@code $${} is a literal {@code ${}. Objects and
 * arrays are walked; subtrees without references are returned as they are (values are treated as
 * immutable, never copied).
 */
public final class Interpolator {

    private Interpolator() {
    }

    /**
     * The value of {@code template} with every reference evaluated.
     *
     * @throws EvaluationException when a reference fails
     */
    public static JsonNode interpolate(ValueTemplate template, Variables vars) {
        if (template instanceof ValueTemplate.Constant) {
            return ((ValueTemplate.Constant) template).value();
        }
        if (template instanceof ValueTemplate.StringTemplate) {
            return string(((ValueTemplate.StringTemplate) template).template(), vars);
        }
        if (template instanceof ValueTemplate.ObjectTemplate) {
            ObjectNode object = JsonNodeFactory.instance.objectNode();
            Map<String, ValueTemplate> fields = ((ValueTemplate.ObjectTemplate) template).fields();
            for (Map.Entry<String, ValueTemplate> field : fields.entrySet()) {
                object.set(field.getKey(), interpolate(field.getValue(), vars));
            }
            return object;
        }
        ValueTemplate.ArrayTemplate arrayTemplate = (ValueTemplate.ArrayTemplate) template;
        ArrayNode array = JsonNodeFactory.instance.arrayNode(arrayTemplate.elements().size());
        for (ValueTemplate element : arrayTemplate.elements()) {
            array.add(interpolate(element, vars));
        }
        return array;
    }

    private static JsonNode string(Template template, Variables vars) {
        if (template.isSingleRef()) {
            return Evaluator.evaluate(((Template.Ref) template.parts().get(0)).expr(), vars);
        }
        StringBuilder sb = new StringBuilder(template.source().length() + 16);
        for (Template.Part part : template.parts()) {
            if (part instanceof Template.Text) {
                sb.append(((Template.Text) part).text());
            } else {
                sb.append(render(Evaluator.evaluate(((Template.Ref) part).expr(), vars)));
            }
        }
        return TextNode.valueOf(sb.toString());
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
