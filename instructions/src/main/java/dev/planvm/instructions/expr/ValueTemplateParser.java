package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonPointers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Walks a JSON value for {@link ValueTemplate#parse}. */
final class ValueTemplateParser {

    private ValueTemplateParser() {}

    static ValueTemplate parse(JsonNode node, String pointer, Consumer<ValueTemplate.SyntaxProblem> problems) {
        if (node.isTextual()) {
            return string(node, pointer, problems);
        }
        if (node.isObject()) {
            Map<String, ValueTemplate> fields = new LinkedHashMap<>();
            boolean constant = true;
            for (Map.Entry<String, JsonNode> field : node.properties()) {
                ValueTemplate v =
                        parse(field.getValue(), pointer + "/" + JsonPointers.escape(field.getKey()), problems);
                constant &= v instanceof ValueTemplate.Constant;
                fields.put(field.getKey(), v);
            }
            return constant ? new ValueTemplate.Constant(node) : new ValueTemplate.ObjectTemplate(fields);
        }
        if (node.isArray()) {
            List<ValueTemplate> elements = new ArrayList<>();
            boolean constant = true;
            for (int i = 0; i < node.size(); i++) {
                ValueTemplate v = parse(node.get(i), pointer + "/" + i, problems);
                constant &= v instanceof ValueTemplate.Constant;
                elements.add(v);
            }
            return constant ? new ValueTemplate.Constant(node) : new ValueTemplate.ArrayTemplate(elements);
        }
        return new ValueTemplate.Constant(node);
    }

    private static ValueTemplate string(JsonNode node, String pointer, Consumer<ValueTemplate.SyntaxProblem> problems) {
        String s = node.textValue();
        Template t;
        try {
            t = Template.parse(s);
        } catch (ExprSyntaxException e) {
            problems.accept(new ValueTemplate.SyntaxProblem(pointer, e.offset(), e.getMessage()));
            return new ValueTemplate.Constant(node);
        }
        boolean plain = t.parts().isEmpty()
                || (t.parts().size() == 1
                        && t.parts().get(0) instanceof Template.Text text
                        && text.text().equals(s));
        return plain ? new ValueTemplate.Constant(node) : new ValueTemplate.StringTemplate(t);
    }
}
