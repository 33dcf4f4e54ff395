package dev.planvm.tools;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a tool call or condition comes from, what the plan expects back, where the call reports
 * what it spends or streams, and how long the attempt may take.
 *
 * @param seqNo        the {@code seq_no} of the calling (or jmp) instruction, or {@link #NO_INSTRUCTION}
 *                     for a call no instruction makes (the agent's planner)
 * @param expectedKeys the names the output must hold as keys of a JSON object (two or more
 *                     {@code output_vars}); empty when the output is stored whole. An LLM tool uses
 *                     this to ask for JSON with these keys.
 * @param events       where the call reports tokens spent and streamed pieces ({@link CallEvents#NONE}
 *                     when nobody listens). Not part of what makes two calls the same: {@link #equals}
 *                     compares the {@code seq_no} and the expected keys only.
 * @param timeout      how long this attempt may take, as the timeout link decided it (see
 *                     {@link Tool#defaultCallTimeout()} for the precedence), or {@code null} when no limit
 *                     was set: a tool bounds its own I/O (an HTTP request, an MCP call) by it, and by its
 *                     default when it is {@code null}. Not compared either.
 * @param element      the call's index in the list of its {@code for_each} step (from 0), or {@link #NO_ELEMENT}
 *                     for a call that is not one element of a map. A durable run keeps what an element waits for
 *                     (an approval, an answer, a wake time) under its step and this index, so the elements of one
 *                     map are waited for each on its own, even when their params are the same. Not compared, like
 *                     the events: a cassette or an early answer matches a call by its tool and params.
 * @param slots        the params are seed 000's slots (a YAML plan's domain call, {@code "slots": true} on its
 *                     {@code calling}): each a list of values; a param the tool's params schema types as one
 *                     value gets the list's one value ({@link JsonSchemas#fitSlots}), below the record and
 *                     replay links, so cassettes and traces keep the plan's lists. Not compared either: it
 *                     follows from the instruction, which the {@code seq_no} names.
 */
public record CallContext(
        int seqNo, List<String> expectedKeys, CallEvents events, Duration timeout, int element, boolean slots) {

    /** The {@code seq_no} of a call that no instruction of a plan makes (the agent asking for a plan). */
    public static final int NO_INSTRUCTION = -1;

    /** The {@link #element} of a call that is not an element of a {@code for_each} step. */
    public static final int NO_ELEMENT = -1;

    public CallContext {
        expectedKeys = List.copyOf(Objects.requireNonNull(expectedKeys, "expectedKeys"));
        events = Objects.requireNonNullElse(events, CallEvents.NONE);
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("a call's timeout must be positive, not " + timeout);
        }
        if (element < NO_ELEMENT) {
            throw new IllegalArgumentException("a call's element index must be 0 or more, not " + element);
        }
    }

    /** A context whose params are not slots. */
    public CallContext(int seqNo, List<String> expectedKeys, CallEvents events, Duration timeout, int element) {
        this(seqNo, expectedKeys, events, timeout, element, false);
    }

    /** A context that is no element of a map. */
    public CallContext(int seqNo, List<String> expectedKeys, CallEvents events, Duration timeout) {
        this(seqNo, expectedKeys, events, timeout, NO_ELEMENT);
    }

    /** A context with no timeout set. */
    public CallContext(int seqNo, List<String> expectedKeys, CallEvents events) {
        this(seqNo, expectedKeys, events, null);
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
        return new CallContext(seqNo, expectedKeys, events, timeout, element, slots);
    }

    /** This context with the attempt's timeout ({@code null}: none). */
    public CallContext withTimeout(Duration attemptTimeout) {
        return new CallContext(seqNo, expectedKeys, events, attemptTimeout, element, slots);
    }

    /** This context as the call of element {@code index} of a {@code for_each} step. */
    public CallContext withElement(int index) {
        return new CallContext(seqNo, expectedKeys, events, timeout, index, slots);
    }

    /** This context whose params are (or are not) seed 000's slots. */
    public CallContext withSlots(boolean value) {
        return new CallContext(seqNo, expectedKeys, events, timeout, element, value);
    }

    /** Whether the call is one element of a {@code for_each} step. */
    public boolean isElement() {
        return element != NO_ELEMENT;
    }

    /** How long this attempt may take, when the run set a limit. */
    public Optional<Duration> attemptTimeout() {
        return Optional.ofNullable(timeout);
    }

    /**
     * How long a tool's own I/O for this attempt may take: the attempt's timeout, else the tool's own
     * setting (when not zero), else its default — for a call that came without one (no limit was set).
     */
    public Duration ioTimeout(Optional<Duration> own, Duration byDefault) {
        return attemptTimeout().or(() -> own.filter(d -> !d.isZero())).orElse(byDefault);
    }

    /** Same {@code seq_no} and expected keys (the events, timeout, element and slots are not compared). */
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
        return "CallContext[seqNo=" + seqNo + ", expectedKeys=" + expectedKeys
                + (isElement() ? ", element=" + element : "") + (slots ? ", slots" : "") + "]";
    }
}
