package dev.planvm.tools.chain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;

/**
 * Observes calls beside the chain (it cannot change them). No-op defaults; a listener that
 * throws is ignored.
 */
public interface CallListener {

    /** A call is about to enter the chain. */
    default void callStarted(Call call) {
    }

    /** The chain answered. */
    default void callFinished(Call call, JsonNode output, long durationNanos) {
    }

    /** The chain failed the call. */
    default void callFailed(Call call, ToolException failure, long durationNanos) {
    }
}
