package dev.planvm.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How long a server asks to wait: retry-after-ms, then Retry-After as seconds or an HTTP date. */
class RetryAfterTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-25T12:00:00Z"), ZoneOffset.UTC);

    private static Duration asked(String... nameValues) {
        Map<String, List<String>> headers = new HashMap<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            headers.put(nameValues[i], List.of(nameValues[i + 1]));
        }
        return RetryAfter.from(headers, NOW);
    }

    @Test
    void no_header_asks_for_no_wait() {
        assertThat(asked()).isNull();
        assertThat(RetryAfter.from(Map.of("Retry-After", List.of()), NOW)).isNull();
        Map<String, List<String>> nullName = new HashMap<>();
        nullName.put(null, List.of("HTTP/1.1 429"));
        assertThat(RetryAfter.from(nullName, NOW)).isNull();
    }

    @Test
    void seconds_and_fractions_round_up_to_the_millisecond() {
        assertThat(asked("Retry-After", "2")).isEqualTo(Duration.ofSeconds(2));
        assertThat(asked("retry-after", " 0.0015 ")).isEqualTo(Duration.ofMillis(2));
        assertThat(asked("RETRY-AFTER", "0")).isEqualTo(Duration.ZERO);
    }

    @Test
    void milliseconds_win_over_seconds() {
        assertThat(asked("retry-after-ms", "1500", "Retry-After", "9")).isEqualTo(Duration.ofMillis(1500));
        assertThat(asked("Retry-After-Ms", "0.4")).isEqualTo(Duration.ofMillis(1));
        assertThat(asked("retry-after-ms", "soon", "Retry-After", "3")).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void an_http_date_is_the_time_until_it_and_a_past_date_is_no_wait() {
        assertThat(asked("Retry-After", "Wed, 25 Nov 2026 12:00:30 GMT")).isEqualTo(Duration.ofSeconds(30));
        assertThat(asked("Retry-After", "Wed, 25 Nov 2026 11:00:00 GMT")).isEqualTo(Duration.ZERO);
    }

    @Test
    void what_does_not_parse_is_no_wait() {
        assertThat(asked("Retry-After", "-5")).isNull();
        assertThat(asked("Retry-After", "")).isNull();
        assertThat(asked("Retry-After", "1".repeat(21))).isNull();
        assertThat(asked("Retry-After", "1".repeat(20)))
                .as("past a long's milliseconds")
                .isNull();
        assertThat(asked("Retry-After", "tomorrow")).isNull();
    }
}
