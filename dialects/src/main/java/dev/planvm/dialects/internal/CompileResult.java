package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Diagnostic;
import java.util.List;
import java.util.Map;

/**
 * What a front end produced: the StackVM plan (null when there are errors), the source line of each
 * instruction, every diagnostic, and the scripts it imports as plan tools (PPE; every one, also those
 * imported by imported scripts). The API wraps it as {@code Compiled}.
 */
public record CompileResult(
        JsonNode plan, Map<Integer, Integer> lineOfSeqNo, List<Diagnostic> diagnostics, List<ImportedScript> imports) {
    public CompileResult {
        lineOfSeqNo = Map.copyOf(lineOfSeqNo);
        diagnostics = List.copyOf(diagnostics);
        imports = List.copyOf(imports);
    }

    public CompileResult(JsonNode plan, Map<Integer, Integer> lineOfSeqNo, List<Diagnostic> diagnostics) {
        this(plan, lineOfSeqNo, diagnostics, List.of());
    }
}
