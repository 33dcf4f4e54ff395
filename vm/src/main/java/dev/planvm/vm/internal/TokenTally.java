package dev.planvm.vm.internal;

import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;

/**
 * Collects the tokens a call reports (and passes them on to {@code downstream}), so a step can
 * record what its calls spent, or an early call's tokens can be told to the step that uses its
 * answer. Thread-safe.
 */
public final class TokenTally implements CallEvents {

    private final CallEvents downstream;
    private TokenCount total = TokenCount.ZERO;

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

    public synchronized TokenCount total() {
        return total;
    }

    /** Tells {@code events} what was collected (nothing when nothing was spent). */
    public void replayTo(CallEvents events) {
        TokenCount spent = total();
        if (!spent.isZero()) {
            events.tokens(spent);
        }
    }
}
