package dev.planvm.tools;

import java.util.List;
import java.util.Objects;

/**
 * Where a tool call or condition comes from, and what the plan expects back.
 *
 * @param seqNo        the {@code seq_no} of the calling (or jmp) instruction
 * @param expectedKeys the names the output must hold as keys of a JSON object (two or more
 *                     {@code output_vars}); empty when the output is stored whole. An LLM tool uses
 *                     this to ask for JSON with these keys.
 */
public record CallContext(int seqNo, List<String> expectedKeys) {
    public CallContext {
        expectedKeys = List.copyOf(Objects.requireNonNull(expectedKeys, "expectedKeys"));
    }

    /** A context that expects the whole output. */
    public static CallContext of(int seqNo) {
        return new CallContext(seqNo, List.of());
    }
}
