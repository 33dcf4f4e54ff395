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
    /** The last slot the call took (its tool, the limit then), or {@code null}: a replay tells it once. */
    private String slotTool;

    private int slotLimit;
    private List<LimitChange> changes = List.of();

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
            slotTool = limiter;
            slotLimit = limit;
        }
        downstream.slotTaken(limiter, limit, waited);
    }

    @Override
    public void limitChanged(String limiter, int limit, String cause) {
        synchronized (this) {
            if (changes.isEmpty()) {
                changes = new ArrayList<>(2);
            }
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
        String tool;
        int limit;
        long waited;
        List<LimitChange> changed;
        synchronized (this) {
            tool = slotTool;
            limit = slotLimit;
            waited = waitedNanos;
            changed = List.copyOf(changes);
        }
        if (tool != null) { // the waits of all its attempts, as one
            events.slotTaken(tool, limit, waited);
        }
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
