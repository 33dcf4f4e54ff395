package dev.planvm.instructions.reach;

import dev.planvm.instructions.ForEach;
import dev.planvm.instructions.expr.ValueTemplate;

/**
 * How many calls one {@code calling} step makes per time it runs: one, or one per element of its {@code for_each}
 * list — a number when the list is written in the plan, "per element" when it is a value known only at run time
 * (at most {@value dev.planvm.instructions.ForEach#MAX_ELEMENTS}: a longer list fails the step).
 */
final class Multiplier {

    private Multiplier() {}

    /** {@code outer} (calls per run of the enclosing plan copy) times what {@code forEach} maps; {@code null}: once. */
    static Reach.Count of(ForEach forEach, Reach.Count outer) {
        if (forEach == null) {
            return outer;
        }
        int known = length(forEach.list());
        return known >= 0 ? outer.times(known) : outer.perElementOfUnknownList();
    }

    /** The length of a list written in the plan; -1 when it is known only at run time. */
    static int length(ValueTemplate list) {
        if (list instanceof ValueTemplate.ArrayTemplate array) {
            return array.elements().size();
        }
        if (list instanceof ValueTemplate.Constant constant && constant.value().isArray()) {
            return constant.value().size();
        }
        return -1;
    }
}
