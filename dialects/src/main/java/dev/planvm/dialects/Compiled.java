package dev.planvm.dialects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.JsonMappers;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a dialect source compiled to.
 *
 * @param plan        the StackVM JSON plan (an array of instructions), or {@code null} when a
 *                    diagnostic is an error
 * @param lineOfSeqNo for each {@code seq_no}, the line of the source it was compiled from (for
 *                    traces and messages); empty when there is no plan
 * @param diagnostics errors and warnings; each message starts with its place,
 *                    {@code line 3, column 7: ...}, and has no {@code seq_no} and the pointer {@code ""}
 * @param imports     the scripts a PPE script imports (and those they import), compiled to plan tools
 *                    that a VM running this plan must offer; empty for every other plan
 */
public record Compiled(
        JsonNode plan, Map<Integer, Integer> lineOfSeqNo, List<Diagnostic> diagnostics, List<ImportedPlan> imports) {

    private static final ObjectWriter PRINTER = JsonMappers.pretty();

    public Compiled {
        lineOfSeqNo = Map.copyOf(lineOfSeqNo);
        diagnostics = List.copyOf(diagnostics);
        imports = List.copyOf(imports);
        if ((plan == null) != diagnostics.stream().anyMatch(Diagnostic::isError)) {
            throw new IllegalArgumentException("a compiled plan is present exactly when there is no error");
        }
    }

    /** A compilation that imports nothing. */
    public Compiled(JsonNode plan, Map<Integer, Integer> lineOfSeqNo, List<Diagnostic> diagnostics) {
        this(plan, lineOfSeqNo, diagnostics, List.of());
    }

    /** Whether the source compiled (warnings allowed). */
    public boolean valid() {
        return plan != null;
    }

    public List<Diagnostic> errors() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }

    public List<Diagnostic> warnings() {
        return diagnostics.stream().filter(d -> !d.isError()).toList();
    }

    /** The plan as indented JSON text, what {@code planvm compile} prints; null when there is no plan. */
    public String planText() {
        if (plan == null) {
            return null;
        }
        try {
            return PRINTER.writeValueAsString(plan);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Loads the compiled plan with {@code loader}: the loader's result, with this compilation's
     * warnings in front, and the plan knowing the source line of each instruction
     * ({@link dev.planvm.instructions.Plan#sourceLine}); when compilation failed, a result with no
     * plan and these diagnostics.
     */
    public LoadResult load(PlanLoader loader, String source) {
        if (plan == null) {
            return new LoadResult(source, null, diagnostics);
        }
        LoadResult loaded = loader.load(plan, source);
        List<Diagnostic> all = new ArrayList<>(diagnostics);
        all.addAll(loaded.diagnostics());
        return new LoadResult(
                source, loaded.plan() == null ? null : loaded.plan().withSourceLines(lineOfSeqNo), all);
    }
}
