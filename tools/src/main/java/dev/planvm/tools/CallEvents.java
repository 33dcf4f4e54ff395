package dev.planvm.tools;

/**
 * What a call reports while it runs, besides its answer: the tokens its LLM requests spent, and the
 * pieces of an answer it streams. A tool reports through {@link CallContext#events()}; planvm gives
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
}
