package dev.planvm.temporal.contract;

import dev.planvm.tools.call.RetryPolicy;
import java.time.Duration;

/** A {@link RetryPolicy} on the wire: attempts in all, the first wait, the longest wait. */
public record RetrySpec(int maxAttempts, long initialBackoffMs, long maxBackoffMs) {

    public RetrySpec {
        if (maxAttempts < 1 || initialBackoffMs < 0 || maxBackoffMs < 0) {
            throw new IllegalArgumentException("a retry policy needs at least 1 attempt and waits of 0 ms or more");
        }
    }

    public static RetrySpec of(RetryPolicy policy) {
        return new RetrySpec(
                policy.maxAttempts(),
                policy.initialBackoff().toMillis(),
                policy.maxBackoff().toMillis());
    }

    public RetryPolicy policy() {
        return new RetryPolicy(maxAttempts, Duration.ofMillis(initialBackoffMs), Duration.ofMillis(maxBackoffMs));
    }
}
