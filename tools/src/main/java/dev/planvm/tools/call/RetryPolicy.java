package dev.planvm.tools.call;

import java.time.Duration;
import java.util.Objects;

/**
 * How often and how patiently a retriable failure is retried.
 *
 * @param maxAttempts    attempts in all, first included (1 = no retry)
 * @param initialBackoff the wait before the second attempt (then doubled for each further one)
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
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (initialBackoff.isNegative() || maxBackoff.isNegative()) {
            throw new IllegalArgumentException("backoffs must not be negative");
        }
    }

    /** This policy with {@code attempts} attempts in all. */
    public RetryPolicy withMaxAttempts(int attempts) {
        return new RetryPolicy(attempts, initialBackoff, maxBackoff);
    }

    /** This policy waiting {@code initial} before the second attempt (the cap grows to it if smaller). */
    public RetryPolicy withInitialBackoff(Duration initial) {
        return new RetryPolicy(maxAttempts, initial, initial.compareTo(maxBackoff) > 0 ? initial : maxBackoff);
    }

    /**
     * The wait before attempt {@code attempt + 1} (attempt counts from 1): exponential, capped, with
     * "equal jitter" (half fixed, half random) so that many runs do not retry in lockstep.
     *
     * @param random a number in [0, 1)
     */
    public Duration backoff(int attempt, double random) {
        long initial = initialBackoff.toMillis();
        int doublings = Math.min(attempt - 1, 30);
        long base = initial > (Long.MAX_VALUE >> doublings) ? Long.MAX_VALUE : initial << doublings;
        long capped = Math.min(base, maxBackoff.toMillis());
        return Duration.ofMillis(capped / 2 + (long) (random * (capped / 2.0)));
    }
}
