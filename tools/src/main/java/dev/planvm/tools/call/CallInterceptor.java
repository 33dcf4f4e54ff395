package dev.planvm.tools.call;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One link of the {@link dev.planvm.tools.chain.CallChain} (the OkHttp interceptor pattern): look at
 * {@link Chain#call()}, then either answer it (replay, dry run, a refusal) or pass it on with
 * {@link Chain#proceed}, possibly several times (retry). Throw
 * {@link dev.planvm.tools.ToolException} to fail the call.
 */
@FunctionalInterface
public interface CallInterceptor {

    JsonNode intercept(Chain chain);

    /** The rest of the chain, as seen from one link. */
    interface Chain {
        Call call();

        /** Passes {@code call} to the next link and returns its answer. */
        JsonNode proceed(Call call);

        /** Tells the chain's listeners that an attempt of {@link #call()} failed (the retry link does). */
        default void attemptFailed(FailedAttempt attempt) {}
    }
}
