package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code assign}: each key of {@code parameters} is a variable, assigned in document order, so a
 * later key sees an earlier one (DESIGN P7).
 *
 * @param values variable name → value template, in document order
 */
public record Assign(Header header, Map<String, ValueTemplate> values) implements Instruction {
    public Assign {
        Objects.requireNonNull(header, "header");
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    @Override
    public List<String> writes() {
        return List.copyOf(values.keySet());
    }

    @Override
    public Set<String> reads() {
        Set<String> reads = new LinkedHashSet<>();
        values.values().forEach(value -> reads.addAll(value.variables()));
        return reads;
    }
}
