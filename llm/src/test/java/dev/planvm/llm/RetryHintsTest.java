package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each provider's way of saying how long to wait, read into the one wait the retry link honours. */
class RetryHintsTest {

    private static final Clock NOW = Clock.fixed(Instant.parse("2026-11-28T10:00:00Z"), ZoneOffset.UTC);

    private static Duration read(LlmProvider provider, Map<String, String> headers, String body) {
        Map<String, List<String>> all = new java.util.HashMap<>();
        headers.forEach((name, value) -> all.put(name, List.of(value)));
        return RetryHints.of(provider).read(all, body, NOW);
    }

    @Test
    void retry_after_comes_first_for_every_provider() {
        for (LlmProvider provider : LlmProvider.values()) {
            assertThat(read(
                            provider,
                            Map.of(
                                    "Retry-After",
                                    "3",
                                    "x-ratelimit-remaining-requests",
                                    "0",
                                    "x-ratelimit-reset-requests",
                                    "1m"),
                            ""))
                    .isEqualTo(Duration.ofSeconds(3));
        }
    }

    @Test
    void openai_waits_for_the_reset_of_the_limit_it_spent() {
        Map<String, String> headers = Map.of(
                "x-ratelimit-remaining-requests", "12",
                "x-ratelimit-reset-requests", "1s",
                "x-ratelimit-remaining-tokens", "0",
                "x-ratelimit-reset-tokens", "6m0.5s");

        assertThat(read(LlmProvider.OPENAI, headers, "")).isEqualTo(Duration.ofMillis(360_500));
        assertThat(read(
                        LlmProvider.AZURE_OPENAI,
                        Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "20ms"),
                        ""))
                .isEqualTo(Duration.ofMillis(20));
        assertThat(read(
                        LlmProvider.OPENAI,
                        Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "soon"),
                        ""))
                .isNull();
    }

    @Test
    void anthropic_waits_until_the_spent_limit_resets() {
        Map<String, String> headers = Map.of(
                "anthropic-ratelimit-requests-remaining", "0",
                "anthropic-ratelimit-requests-reset", "2026-11-28T10:00:30Z",
                "anthropic-ratelimit-tokens-remaining", "5000",
                "anthropic-ratelimit-tokens-reset", "2026-11-28T10:05:00Z");

        assertThat(read(LlmProvider.ANTHROPIC, headers, "")).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void gemini_reads_the_retry_info_of_its_error() {
        String body = """
                {"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [
                  {"@type": "type.googleapis.com/google.rpc.QuotaFailure"},
                  {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37.5s"}]}}""";

        assertThat(read(LlmProvider.GEMINI, Map.of(), body)).isEqualTo(Duration.ofMillis(37_500));
        assertThat(read(LlmProvider.GEMINI, Map.of(), "not json")).isNull();
    }

    @Test
    void a_wait_longer_than_a_day_is_cut_to_a_day() {
        assertThat(read(
                        LlmProvider.OPENAI,
                        Map.of("x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", "9999h"),
                        ""))
                .isEqualTo(Duration.ofDays(1));
    }
}
