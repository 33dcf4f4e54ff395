package dev.planvm.tools;

import java.util.List;
import java.util.Objects;

/**
 * Where a tool call or condition comes from, what the plan expects back, and where the call reports
 * what it spends or streams.
 *
 * @param seqNo        the {@code seq_no} of the calling (or jmp) instruction, or {@link #NO_INSTRUCTION}
 *                     for a call no instruction makes (the agent's planner)
 * @param expectedKeys the names the output must hold as keys of a JSON object (two or more
 *                     {@code output_vars}); empty when the output is stored whole. An LLM tool uses
 *                     this to ask for JSON with these keys.
 * @param events       where the call reports tokens spent and streamed pieces ({@link CallEvents#NONE}
 *                     when nobody listens). Not part of what makes two calls the same: {@link #equals}
 *                     compares the {@code seq_no} and the expected keys only.
 */
public record CallContext(int seqNo, List<String> expectedKeys, CallEvents events) {

    /** The {@code seq_no} of a call that no instruction of a plan makes (the agent asking for a plan). */
    public static final int NO_INSTRUCTION = -1;

    public CallContext {
        expectedKeys = List.copyOf(Objects.requireNonNull(expectedKeys, "expectedKeys"));
        events = Objects.requireNonNullElse(events, CallEvents.NONE);
    }

    /** A context whose events nobody listens to. */
    public CallContext(int seqNo, List<String> expectedKeys) {
        this(seqNo, expectedKeys, CallEvents.NONE);
    }

    /** A context that expects the whole output. */
    public static CallContext of(int seqNo) {
        return new CallContext(seqNo, List.of());
    }

    /** This context reporting to {@code events}. */
    public CallContext withEvents(CallEvents events) {
        return new CallContext(seqNo, expectedKeys, events);
    }

    /** Same {@code seq_no} and expected keys (the events are not compared). */
    @Override
    public boolean equals(Object o) {
        return o instanceof CallContext other && seqNo == other.seqNo && expectedKeys.equals(other.expectedKeys);
    }

    @Override
    public int hashCode() {
        return 31 * seqNo + expectedKeys.hashCode();
    }

    @Override
    public String toString() {
        return "CallContext[seqNo=" + seqNo + ", expectedKeys=" + expectedKeys + "]";
    }
}
