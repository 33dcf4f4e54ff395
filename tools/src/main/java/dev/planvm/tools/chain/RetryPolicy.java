package dev.planvm.tools.chain;

import java.time.Duration;

/**
 * How often and how patiently a retriable failure is retried.
 *
 * @param maxAttempts    attempts in all, first included (1 = no retry)
 * @param initialBackoff the wait before the second attempt
 * @param maxBackoff     the longest wait between attempts
 */
public record RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {

    /** 3 attempts, waiting about 0.5 s then 1 s (with jitter), at most 8 s. */
    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofMillis(500), Duration.ofSeconds(8));

    /** One attempt, no retry. */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
    }

    /**
     * The wait before attempt {@code attempt + 1} (attempt counts from 1): exponential, capped, with
     * "equal jitter" (half fixed, half random) so that many runs do not retry in lockstep.
     */
    public Duration backoff(int attempt, double random) {
        long base = initialBackoff.toMillis() << Math.min(attempt - 1, 20);
        long capped = Math.min(base, maxBackoff.toMillis());
        return Duration.ofMillis(capped / 2 + (long) (random * (capped / 2.0)));
    }
}
