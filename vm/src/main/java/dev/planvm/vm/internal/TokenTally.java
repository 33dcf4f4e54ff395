package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects what a call reports (and passes it on to {@code downstream}): the tokens it spent, the time it
 * waited for slots of its tool's concurrency limit and the changes of that limit it caused, so a step can
 * record them, or an early call's can be told to the step that uses its answer. Thread-safe.
 */
public final class TokenTally implements CallEvents {

    /** A change of a tool's concurrency limit a call caused. */
    record LimitChange(String tool, int limit, String cause) {}

    private final CallEvents downstream;
    private TokenCount total = TokenCount.ZERO;
    private long waitedNanos;
    private final List<Slot> slots = new ArrayList<>(1);
    private final List<LimitChange> changes = new ArrayList<>(0);

    private record Slot(String tool, int limit, long waitedNanos) {}

    public TokenTally() {
        this(CallEvents.NONE);
    }

    public TokenTally(CallEvents downstream) {
        this.downstream = downstream;
    }

    @Override
    public void tokens(TokenCount tokens) {
        synchronized (this) {
            total = total.plus(tokens);
        }
        downstream.tokens(tokens);
    }

    @Override
    public void streamStarted() {
        downstream.streamStarted();
    }

    @Override
    public void chunk(String text) {
        downstream.chunk(text);
    }

    @Override
    public void slotTaken(String limiter, int limit, long waited) {
        synchronized (this) {
            waitedNanos += waited;
            slots.add(new Slot(limiter, limit, waited));
        }
        downstream.slotTaken(limiter, limit, waited);
    }

    @Override
    public void limitChanged(String limiter, int limit, String cause) {
        synchronized (this) {
            changes.add(new LimitChange(limiter, limit, cause));
        }
        downstream.limitChanged(limiter, limit, cause);
    }

    public synchronized TokenCount total() {
        return total;
    }

    /** How long the call waited for slots of its tool's concurrency limit, in all its attempts. */
    synchronized long waitedNanos() {
        return waitedNanos;
    }

    /** The changes of concurrency limits the call caused, in order. */
    synchronized List<LimitChange> changes() {
        return List.copyOf(changes);
    }

    /** Tells {@code events} what was collected (nothing when nothing was reported). */
    public void replayTo(CallEvents events) {
        TokenCount spent = total();
        if (!spent.isZero()) {
            events.tokens(spent);
        }
        List<Slot> taken;
        List<LimitChange> changed;
        synchronized (this) {
            taken = List.copyOf(slots);
            changed = List.copyOf(changes);
        }
        taken.forEach(slot -> events.slotTaken(slot.tool(), slot.limit(), slot.waitedNanos()));
        changed.forEach(change -> events.limitChanged(change.tool(), change.limit(), change.cause()));
    }

    /** The most limit changes one step records; past it, the step keeps the first ones and counts the rest. */
    static final int MAX_CHANGES = 20;

    /**
     * {@code changes} as a step records them: {@code [{"tool", "limit", "cause"}]}, at most {@link #MAX_CHANGES}
     * (the count of the rest, when there are more, in a last entry {@code {"more": N}}).
     */
    static ArrayNode toJson(List<LimitChange> changes) {
        ArrayNode json = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < changes.size() && i < MAX_CHANGES; i++) {
            LimitChange change = changes.get(i);
            json.addObject()
                    .put("tool", change.tool())
                    .put("limit", change.limit())
                    .put("cause", change.cause());
        }
        if (changes.size() > MAX_CHANGES) {
            json.addObject().put("more", changes.size() - MAX_CHANGES);
        }
        return json;
    }
}
