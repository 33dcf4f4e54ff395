package dev.planvm.dialects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;

/**
 * A script another script imports, compiled: the plan-tool document (named as the import names it),
 * the file it came from and the source line of each {@code seq_no}.
 */
public record ImportedScript(String name, Path file, JsonNode plan, Map<Integer, Integer> lineOfSeqNo) {
    public ImportedScript {
        lineOfSeqNo = Map.copyOf(lineOfSeqNo);
    }
}
