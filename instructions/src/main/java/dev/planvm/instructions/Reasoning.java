package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * {@code reasoning} (DESIGN P10): no effect on variables; its parameters are kept in the trace
 * and never interpolated.
 *
 * @param parameters the parameters as written (a missing object is an empty one)
 */
public record Reasoning(Header header, JsonNode parameters) implements Instruction {
    public Reasoning {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(parameters, "parameters");
    }
}
