package dev.planvm.temporal.contract;

import dev.planvm.tools.call.RetryPolicy;
import java.time.Duration;

/**
 * How one call is retried and timed, as the workflow tells the activity (planvm's retry policy
 * and attempt timeout of the call's tool).
 *
 * @param maxAttempts      attempts in all (1: no retry)
 * @param initialBackoffMs the wait before the second attempt, doubled for each further one
 * @param maxBackoffMs     the longest wait between attempts
 * @param timeoutMs        the longest one attempt may take; 0: no limit
 * @param maxRetryAfterMs  the longest {@code Retry-After} waited for; a longer one fails the call at once
 */
public record CallSettings(
        int maxAttempts, long initialBackoffMs, long maxBackoffMs, long timeoutMs, long maxRetryAfterMs) {

    public CallSettings {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (initialBackoffMs < 0 || maxBackoffMs < 0 || timeoutMs < 0 || maxRetryAfterMs < 0) {
            throw new IllegalArgumentException("call settings must not be negative");
        }
    }

    /** The settings of a retry policy, an attempt timeout ({@code null}: none) and a longest Retry-After. */
    public static CallSettings of(RetryPolicy policy, Duration timeout, Duration maxRetryAfter) {
        return new CallSettings(
                policy.maxAttempts(),
                policy.initialBackoff().toMillis(),
                policy.maxBackoff().toMillis(),
                timeout == null ? 0 : timeout.toMillis(),
                maxRetryAfter.toMillis());
    }

    public RetryPolicy retryPolicy() {
        return new RetryPolicy(maxAttempts, Duration.ofMillis(initialBackoffMs), Duration.ofMillis(maxBackoffMs));
    }

    /** The attempt timeout, or {@code null} when there is none. */
    public Duration timeout() {
        return timeoutMs == 0 ? null : Duration.ofMillis(timeoutMs);
    }

    public Duration maxRetryAfter() {
        return Duration.ofMillis(maxRetryAfterMs);
    }
}
