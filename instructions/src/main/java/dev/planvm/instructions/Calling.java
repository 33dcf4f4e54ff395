package dev.planvm.instructions;

import dev.planvm.instructions.expr.ValueTemplate;
import java.util.ArrayList;
import java.util.LinkedHashSet;
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
 * @param forEach    the list the tool is called once per element of ({@code for_each}), or {@code null}
 * @param slots      the params are seed 000's slots ({@code "slots": true}, what the YAML dialect compiles a
 *                   domain call to): each a list of values, a param the tool's params schema types as one value
 *                   getting the list's one value; a list of another length there is refused before the run
 */
public record Calling(
        Header header,
        String tool,
        ValueTemplate params,
        OutputVars outputVars,
        OnError onError,
        ForEach forEach,
        boolean slots)
        implements Instruction {
    public Calling {
        Objects.requireNonNull(header, "header");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(outputVars, "outputVars");
    }

    /** A calling whose params are not slots. */
    public Calling(
            Header header, String tool, ValueTemplate params, OutputVars outputVars, OnError onError, ForEach forEach) {
        this(header, tool, params, outputVars, onError, forEach, false);
    }

    /** A calling without {@code for_each}. */
    public Calling(Header header, String tool, ValueTemplate params, OutputVars outputVars, OnError onError) {
        this(header, tool, params, outputVars, onError, null, false);
    }

    /** A calling without {@code on_error} nor {@code for_each}. */
    public Calling(Header header, String tool, ValueTemplate params, OutputVars outputVars) {
        this(header, tool, params, outputVars, null, null, false);
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

    /**
     * What the params read, and the {@code for_each} list; with {@code for_each}, the element and
     * {@code index} names are bound inside the params and are not reads of the variable store.
     */
    @Override
    public Set<String> reads() {
        if (forEach == null) {
            return params.variables();
        }
        Set<String> reads = new LinkedHashSet<>(params.variables());
        reads.removeAll(forEach.bound());
        reads.addAll(forEach.list().variables());
        return Set.copyOf(reads);
    }
}
