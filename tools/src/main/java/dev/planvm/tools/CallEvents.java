package dev.planvm.tools;

/**
 * What a call reports while it runs, besides its answer: the tokens its LLM requests spent, and the
 * pieces of an answer it streams (and, reported by planvm's limit link on the way to the tool, the slot of
 * its tool's concurrency limit it took and how its outcome moved that limit). A tool reports through {@link CallContext#events()}; planvm gives
 * each call its own events (the step records the tokens, the run's budget counts them, a cassette
 * records them and replays them, a streaming caller reads the pieces, and the chain tells its listeners
 * what was reported: {@link dev.planvm.tools.call.CallListener#tokens}). This is the tool's handle, not
 * an observer to register: to observe calls, a run has listeners. All methods are no-ops by
 * default and may be called from any thread; implementations must be thread-safe and never throw.
 */
public interface CallEvents {

    /** Events nobody listens to. */
    CallEvents NONE = new CallEvents() {
        @Override
        public String toString() {
            return "CallEvents.NONE";
        }
    };

    /** One LLM request of the call spent these tokens (a tool that asks several times reports each). */
    default void tokens(TokenCount tokens) {}

    /**
     * An attempt starts streaming its answer: the pieces reported before (by an attempt that failed
     * and is being retried) are void.
     */
    default void streamStarted() {}

    /** The next piece of a streamed answer, in order; the pieces of one attempt make up its answer. */
    default void chunk(String text) {}

    /**
     * An attempt of the call took a slot of {@code limiter} (its tool's concurrency limit, or the LLM's) after
     * waiting {@code waitedNanos} for one; {@code limit} slots were open then. Reported by planvm's limit link,
     * not by tools.
     */
    default void slotTaken(String limiter, int limit, long waitedNanos) {}

    /**
     * How an attempt of the call ended moved the adaptive limit of {@code limiter} to {@code limit};
     * {@code cause} says why: {@code overloaded} (429, 503, Retry-After), {@code timeout}, {@code latency}
     * (answers slowed down) or {@code growth} (answers in steady time). Reported by planvm's limit link.
     */
    default void limitChanged(String limiter, int limit, String cause) {}
}
