package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code calling} (DESIGN P9): invokes a tool with interpolated params and stores its output.
 *
 * @param tool       the tool name ({@code tool} or {@code tool_name}; never interpolated)
 * @param params     the params template ({@code params} or {@code tool_params}; an empty object when absent)
 * @param outputVars where the output goes
 */
public record Calling(Header header, String tool, ValueTemplate params, OutputVars outputVars) implements Instruction {
    public Calling {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(outputVars, "outputVars");
    }

    @Override
    public boolean callsOut() {
        return true;
    }

    @Override
    public List<String> writes() {
        return outputVars.names();
    }

    @Override
    public Set<String> reads() {
        return params.variables();
    }
}
