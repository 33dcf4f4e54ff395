package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code for_each} of a {@code calling} instruction (a planvm extension): the tool is called
 * once per element of {@link #list}, concurrently, with its params interpolated per element; the
 * element is bound to {@link #as} and its position to {@link #INDEX}, inside the step's params only
 * (neither is written to the variable store). The step's output is the array of the outputs, in
 * the list's order.
 *
 * @param list a {@code ${reference}} that must resolve to a JSON array, or a literal array
 * @param as   the name the element is bound to ({@code as}; {@link #DEFAULT_AS} when absent)
 */
public record ForEach(ValueTemplate list, String as) {

    /** The name the element's position (0, 1, ...) is bound to. */
    public static final String INDEX = "index";

    /** The name the element is bound to when {@code as} is absent. */
    public static final String DEFAULT_AS = "item";

    /** The most elements one {@code for_each} maps; a longer list fails the step. */
    public static final int MAX_ELEMENTS = 1_000;

    public ForEach {
        Objects.requireNonNull(list, "list");
        Objects.requireNonNull(as, "as");
    }

    /** The names bound inside the params: the element's and {@code index}. */
    public Set<String> bound() {
        return as.equals(INDEX) ? Set.of(INDEX) : Set.of(as, INDEX);
    }
}
