package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.Objects;
import java.util.Set;

/**
 * An instruction of a type registered through the Java API (not one of the four built-ins). Its
 * parameters are interpolated like {@code assign} values; its handler decides what they mean.
 * A plan is loaded with custom types only by a loader that was told about them.
 */
public record Custom(Header header, ValueTemplate parameters) implements Instruction {
    public Custom {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(parameters, "parameters");
    }

    @Override
    public Set<String> reads() {
        return parameters.variables();
    }
}
