package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Diagnostic;
import java.util.List;
import java.util.Map;

/**
 * What a front end produced: the StackVM plan (null when there are errors), the source line of each
 * instruction, and every diagnostic. The API wraps it as {@code Compiled}.
 */
public record CompileResult(JsonNode plan, Map<Integer, Integer> lineOfSeqNo, List<Diagnostic> diagnostics) {
    public CompileResult {
        lineOfSeqNo = Map.copyOf(lineOfSeqNo);
        diagnostics = List.copyOf(diagnostics);
    }
}
