package dev.planvm.tools.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;

/**
 * Observes calls beside the chain (it cannot change them): what a {@link dev.planvm.tools.chain.CallChain} tells. No-op defaults;
 * a listener that throws is ignored. Calls may run on several threads at once (calls started ahead of
 * their turn), so a listener must be thread-safe. An application that runs plans does not implement this
 * type on its own: it implements the VM's {@code RunListener}, which extends it, and the VM hands the chain
 * of each run one guarded fan-out of the run's listeners.
 */
public interface CallListener {

    /** A call is about to enter the chain. */
    default void callStarted(Call call) {}

    /** The chain answered. */
    default void callFinished(Call call, JsonNode output, long durationNanos) {}

    /** The chain failed the call. */
    default void callFailed(Call call, ToolException failure, long durationNanos) {}

    /**
     * The call left the chain neither answered nor failed: something else was thrown through it (a call
     * that waits for a reviewer's approval, an error). Told so that a listener releases what it holds for
     * the call (a span, a context made current on this thread in {@link #callStarted}).
     */
    default void callAbandoned(Call call, Throwable cause) {}

    /**
     * An attempt of a call failed and the retry link retried it ({@link FailedAttempt#nextWait()} set)
     * or gave up after more than one attempt ({@code nextWait} null). Not told for a call that failed
     * at its only attempt: {@link #callFailed} says that.
     */
    default void attemptFailed(Call call, FailedAttempt attempt) {}

    /**
     * The call reported the tokens one LLM request spent ({@link dev.planvm.tools.CallEvents#tokens}), on the
     * thread that reported them; a replayed call reports what was recorded.
     */
    default void tokens(Call call, TokenCount tokens) {}

    /** An attempt of the call starts streaming its answer: the pieces told before for this call are void. */
    default void streamStarted(Call call) {}

    /** The next piece of the call's streamed answer ({@link dev.planvm.tools.CallEvents#chunk}), in order. */
    default void chunk(Call call, String text) {}

    /**
     * An attempt of the call took a slot of {@code limiter} (its tool's concurrency limit, or the LLM's) after
     * waiting {@code waitedNanos}; {@code limit} slots were open then ({@link dev.planvm.tools.CallEvents#slotTaken}).
     */
    default void slotTaken(Call call, String limiter, int limit, long waitedNanos) {}

    /**
     * How an attempt of the call ended moved the adaptive limit of {@code limiter} to {@code limit}, because
     * {@code cause} ({@link dev.planvm.tools.CallEvents#limitChanged}).
     */
    default void limitChanged(Call call, String limiter, int limit, String cause) {}
}
