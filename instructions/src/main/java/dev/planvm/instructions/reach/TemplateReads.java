package dev.planvm.instructions.reach;

import dev.planvm.instructions.ForEach;
import dev.planvm.instructions.expr.Exprs;
import dev.planvm.instructions.expr.Template;
import dev.planvm.instructions.expr.ValueTemplate;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a value template's value can be made of: the variables its references read (a {@code for_each} element
 * standing for the variables of the list), and whether it has text of its own (written text, a constant, a
 * reference reading no variable).
 *
 * @param vars    the variables read, as variable ids of the plan copy
 * @param literal whether plan text goes into the value
 */
record TemplateReads(int[] vars, boolean literal) {

    static final TemplateReads NOTHING = new TemplateReads(new int[0], false);

    /** The reads of {@code template} in {@code scope}; inside params of a {@code for_each}, {@code forEach} binds names. */
    static TemplateReads of(ValueTemplate template, SuperGraph.Scope scope, ForEach forEach) {
        BitSet vars = new BitSet();
        boolean[] literal = {false};
        walk(template, scope, forEach, vars, literal);
        return new TemplateReads(vars.stream().toArray(), literal[0]);
    }

    /**
     * The reads of each param: the top-level keys of an object of params, in order; params given as one value
     * ({@code "tool_params": "${args}"}) are the one param {@code *}.
     */
    static Map<String, TemplateReads> params(ValueTemplate params, SuperGraph.Scope scope, ForEach forEach) {
        Map<String, TemplateReads> byKey = new LinkedHashMap<>();
        if (params instanceof ValueTemplate.ObjectTemplate object) {
            object.fields().forEach((key, value) -> byKey.put(key, of(value, scope, forEach)));
        } else if (params instanceof ValueTemplate.Constant constant
                && constant.value().isObject()) {
            constant.value().fieldNames().forEachRemaining(key -> byKey.put(key, new TemplateReads(new int[0], true)));
        } else {
            byKey.put("*", of(params, scope, forEach));
        }
        return byKey;
    }

    /** Both reads together. */
    TemplateReads and(TemplateReads other) {
        BitSet all = new BitSet();
        Arrays.stream(vars).forEach(all::set);
        Arrays.stream(other.vars).forEach(all::set);
        return new TemplateReads(all.stream().toArray(), literal || other.literal);
    }

    private static void walk(
            ValueTemplate template, SuperGraph.Scope scope, ForEach forEach, BitSet vars, boolean[] literal) {
        if (template instanceof ValueTemplate.Constant) {
            literal[0] = true;
        } else if (template instanceof ValueTemplate.StringTemplate string) {
            for (Template.Part part : string.template().parts()) {
                if (part instanceof Template.Text) {
                    literal[0] = true;
                } else if (part instanceof Template.Ref ref) {
                    var names = Exprs.rootVariables(ref.expr());
                    if (names.isEmpty()) {
                        literal[0] = true;
                    }
                    for (String name : names) {
                        read(name, scope, forEach, vars, literal);
                    }
                }
            }
        } else if (template instanceof ValueTemplate.ObjectTemplate object) {
            object.fields().values().forEach(field -> walk(field, scope, forEach, vars, literal));
        } else if (template instanceof ValueTemplate.ArrayTemplate array) {
            array.elements().forEach(element -> walk(element, scope, forEach, vars, literal));
        }
    }

    private static void read(String name, SuperGraph.Scope scope, ForEach forEach, BitSet vars, boolean[] literal) {
        if (forEach != null && forEach.bound().contains(name)) {
            if (name.equals(forEach.as())) {
                walk(forEach.list(), scope, null, vars, literal); // the element: a part of the list
            } else {
                literal[0] = true; // index: a number the run counts
            }
            return;
        }
        int var = scope.var(name);
        if (var < 0) {
            literal[0] = true; // a date/time helper name: the run's clock
        } else {
            vars.set(var);
        }
    }
}
