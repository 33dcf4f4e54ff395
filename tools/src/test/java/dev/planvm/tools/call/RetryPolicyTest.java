package dev.planvm.tools.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Retry policies: what is refused, and the exponential, capped, half-jittered backoff. */
class RetryPolicyTest {

    @Test
    void one_attempt_is_the_least_and_backoffs_are_not_negative() {
        assertThat(new RetryPolicy(1, Duration.ZERO, Duration.ZERO)).isEqualTo(RetryPolicy.NONE);
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
                .hasMessage("maxAttempts must be at least 1");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(-1), Duration.ZERO))
                .hasMessage("backoffs must not be negative");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ZERO, Duration.ofMillis(-1)))
                .hasMessage("backoffs must not be negative");
    }

    @Test
    void the_backoff_doubles_up_to_its_cap_half_of_it_fixed_and_half_random() {
        RetryPolicy policy = new RetryPolicy(10, Duration.ofMillis(400), Duration.ofMillis(3_000));
        assertThat(policy.backoff(1, 0.0)).isEqualTo(Duration.ofMillis(200));
        assertThat(policy.backoff(1, 0.5)).isEqualTo(Duration.ofMillis(300));
        assertThat(policy.backoff(2, 0.0)).isEqualTo(Duration.ofMillis(400));
        assertThat(policy.backoff(3, 0.999)).isEqualTo(Duration.ofMillis(1_599));
        assertThat(policy.backoff(4, 0.0)).as("3,200 capped at 3,000").isEqualTo(Duration.ofMillis(1_500));
        assertThat(policy.backoff(60, 0.5)).as("no overflow").isEqualTo(Duration.ofMillis(2_250));
    }

    @Test
    void a_longer_initial_backoff_raises_the_cap_to_it() {
        RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(100), Duration.ofMillis(1_000));
        assertThat(policy.withInitialBackoff(Duration.ofMillis(2_000)).maxBackoff())
                .isEqualTo(Duration.ofMillis(2_000));
        assertThat(policy.withInitialBackoff(Duration.ofMillis(1_000)).maxBackoff())
                .isEqualTo(Duration.ofMillis(1_000));
        assertThat(policy.withInitialBackoff(Duration.ofMillis(500)).maxBackoff())
                .isEqualTo(Duration.ofMillis(1_000));
        assertThat(policy.withMaxAttempts(7).maxAttempts()).isEqualTo(7);
    }
}
