package dev.planvm.dialects.internal.ppe;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.internal.Pos;

/**
 * The schema a script is given as its {@code output} input, in words, when it runs ({@code output__words}), for a
 * template's {@code {{output}}}: {@link SchemaText}'s lines for an object's properties ({@code * "name" is a
 * required text string representing ...}), written by a loop over the properties, since the schema is known only
 * then. A schema that is not an object with properties gives no words (the template then shows the schema).
 */
final class OutputWords {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private OutputWords() {}

    static void emit(PlanBuilder plan, Pos pos) {
        String where = "line " + pos.line() + ": the output schema in words";
        ObjectNode start = JSON.objectNode();
        start.put(
                "ow_keys",
                "${output != null && contains(keys(output), 'properties') && keys(output.properties) || []}");
        start.put("ow_i", 0);
        start.putNull("output__words");
        plan.assign(start, pos, where);
        PlanBuilder.Label top = plan.label();
        PlanBuilder.Label done = plan.label();
        plan.place(top);
        plan.jumpIf("${ow_i >= len(ow_keys)}", done, pos, where + ": after the last property");
        ObjectNode line = JSON.objectNode();
        line.put("ow_k", "${ow_keys[ow_i]}");
        line.put("ow_p", "${output.properties[ow_k]}");
        line.put("ow_t", "${contains(keys(ow_p), 'type') && ow_p.type || ''}");
        line.put(
                "output__words",
                "${(output__words != null && output__words + '\\n' || '') + '* \"' + ow_k + '\" is '"
                        + " + (contains(keys(output), 'required') && contains(output.required, ow_k)"
                        + " && 'a required ' || 'an optional ')"
                        + " + (ow_t == 'string' && 'text string' || ow_t == 'array' && 'list' || ow_t)"
                        + " + (contains(keys(ow_p), 'description') && ' representing ' + ow_p.description || '')}");
        line.put("ow_i", "${ow_i + 1}");
        plan.assign(line, pos, where + ": one property");
        plan.jump(top, pos, where + ": the next property");
        plan.place(done);
    }
}
