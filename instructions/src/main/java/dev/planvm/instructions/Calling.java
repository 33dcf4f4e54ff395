package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code calling} (DESIGN P9): invokes a tool with interpolated params and stores its output.
 *
 * @param tool       the tool name ({@code tool} or {@code tool_name}; never interpolated)
 * @param params     the params template ({@code params} or {@code tool_params}; an empty object when absent)
 * @param outputVars where the output goes
 * @param onError    what a failed call does instead of failing the run ({@code on_error}), or {@code null}
 */
public record Calling(Header header, String tool, ValueTemplate params, OutputVars outputVars, OnError onError)
        implements Instruction {
    public Calling {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(outputVars, "outputVars");
    }

    /** A calling without {@code on_error}. */
    public Calling(Header header, String tool, ValueTemplate params, OutputVars outputVars) {
        this(header, tool, params, outputVars, null);
    }

    /** With {@code on_error.jump}, a failed call continues at that {@code seq_no}. */
    @Override
    public List<Integer> jumpTargets() {
        return onError instanceof OnError.Jump jump ? List.of(jump.seqNo()) : List.of();
    }

    @Override
    public boolean callsOut() {
        return true;
    }

    /** The {@code output_vars}, and {@code last_error} when {@code on_error} may set it. */
    @Override
    public List<String> writes() {
        if (onError == null) {
            return outputVars.names();
        }
        List<String> writes = new ArrayList<>(outputVars.names());
        if (!writes.contains(OnError.LAST_ERROR)) {
            writes.add(OnError.LAST_ERROR);
        }
        return List.copyOf(writes);
    }

    @Override
    public Set<String> reads() {
        return params.variables();
    }
}
