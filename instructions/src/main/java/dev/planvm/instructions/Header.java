package dev.planvm.instructions;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * What every instruction has, whatever its type.
 *
 * @param seqNo     the instruction's {@code seq_no}
 * @param type      the instruction type as written ({@code assign}, {@code jmp}, ...)
 * @param pointer   JSON pointer of the instruction object in the plan document
 * @param objective the {@code execution_objective}, or {@code null}
 * @param raw       the instruction exactly as loaded, kept for the trace
 */
public record Header(int seqNo, String type, String pointer, String objective, JsonNode raw) {
    public Header {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(raw, "raw");
    }
}
