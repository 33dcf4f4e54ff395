package dev.planvm.tools.chain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries calls that failed with a retriable {@link ToolException} (I/O errors, timeouts, HTTP 429
 * and 5xx), with exponential backoff and jitter, up to {@link RetryPolicy#maxAttempts()}.
 * Non-retriable failures pass through at once.
 */
public final class RetryLink implements CallInterceptor {

    private static final Logger log = LoggerFactory.getLogger(RetryLink.class);

    /** Waits; replaceable in tests. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final RetryPolicy policy;
    private final Sleeper sleeper;

    public RetryLink(RetryPolicy policy) {
        this(policy, duration -> Thread.sleep(duration.toMillis()));
    }

    public RetryLink(RetryPolicy policy, Sleeper sleeper) {
        this.policy = policy;
        this.sleeper = sleeper;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        for (int attempt = 1; ; attempt++) {
            try {
                return chain.proceed(call);
            } catch (ToolException e) {
                if (!e.retriable() || attempt >= policy.maxAttempts()) {
                    if (attempt > 1) {
                        throw new ToolException(e.getMessage() + " (after " + attempt + " attempts)", e.retriable(), e);
                    }
                    throw e;
                }
                Duration wait = policy.backoff(attempt, ThreadLocalRandom.current().nextDouble());
                log.info("{} at seq_no {} failed ({}); attempt {} of {} in {} ms", call.describe(),
                        call.context().seqNo(), e.getMessage(), attempt + 1, policy.maxAttempts(), wait.toMillis());
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new ToolException("interrupted while waiting to retry " + call.describe(), false, interrupted);
                }
            }
        }
    }
}
