package dev.planvm.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.RetryAfter;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long an LLM server's error answer asks to wait before the next request, read the provider's way; the
 * wait feeds the one retry rule (the retry link waits the longer of its backoff and this). Every provider's
 * {@code retry-after-ms} and {@code Retry-After} come first ({@link RetryAfter}); when they are absent:
 *
 * <ul>
 *   <li>OpenAI and Azure OpenAI: {@code x-ratelimit-reset-requests} / {@code -tokens} ({@code 1s}, {@code 6m0s},
 *       {@code 20ms}) of the limit whose {@code x-ratelimit-remaining-*} is 0;
 *   <li>Anthropic: {@code anthropic-ratelimit-*-reset} (an RFC 3339 time) of the limit whose
 *       {@code anthropic-ratelimit-*-remaining} is 0;
 *   <li>Gemini: the error body's {@code google.rpc.RetryInfo} detail ({@code "retryDelay": "37s"}).
 * </ul>
 *
 * A value that does not parse counts as absent; the longest of several waits wins.
 */
@FunctionalInterface
interface RetryHints {

    /** The wait the answer asks for, or null. */
    Duration read(Map<String, List<String>> headers, String body, Clock clock);

    /** Just {@code retry-after-ms} and {@code Retry-After}. */
    RetryHints STANDARD = (headers, body, clock) -> RetryAfter.from(headers, clock);

    static RetryHints of(LlmProvider provider) {
        RetryHints own = switch (provider) {
            case OPENAI, AZURE_OPENAI ->
                (headers, body, clock) -> Internal.resets(
                        headers, "x-ratelimit-", List.of("requests", "tokens"), Internal::goDuration, clock);
            case ANTHROPIC ->
                (headers, body, clock) -> Internal.resets(
                        headers,
                        "anthropic-ratelimit-",
                        List.of("requests", "tokens", "input-tokens", "output-tokens"),
                        Internal::rfc3339,
                        clock);
            case GEMINI -> (headers, body, clock) -> Internal.retryInfo(body);
            default -> (headers, body, clock) -> null;
        };
        return (headers, body, clock) -> {
            Duration standard = STANDARD.read(headers, body, clock);
            return standard != null ? standard : own.read(headers, body, clock);
        };
    }

    /** The parsers (kept out of the interface's API). */
    final class Internal {
        private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);
        private static final Pattern GO_DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|h|m|s)");
        private static final Duration MAX = Duration.ofDays(1);

        private Internal() {}

        /** The longest reset among the limits (by {@code prefix + kind}) whose remaining count is 0. */
        static Duration resets(
                Map<String, List<String>> headers,
                String prefix,
                List<String> kinds,
                java.util.function.BiFunction<String, Clock, Duration> parse,
                Clock clock) {
            Duration longest = null;
            for (String kind : kinds) {
                String remaining = header(headers, prefix + "remaining-" + kind, prefix + kind + "-remaining");
                String reset = header(headers, prefix + "reset-" + kind, prefix + kind + "-reset");
                if (reset == null || !"0".equals(remaining)) {
                    continue;
                }
                Duration wait = parse.apply(reset, clock);
                if (wait != null && (longest == null || wait.compareTo(longest) > 0)) {
                    longest = wait;
                }
            }
            return longest;
        }

        /** {@code 1s}, {@code 6m0s}, {@code 20ms}, {@code 1h2m3.5s}: Go's duration form, as OpenAI writes it. */
        static Duration goDuration(String value, Clock clock) {
            if (value.isEmpty() || value.length() > 40) {
                return null;
            }
            Matcher part = GO_DURATION.matcher(value);
            BigDecimal millis = BigDecimal.ZERO;
            int end = 0;
            while (part.find()) {
                if (part.start() != end) {
                    return null;
                }
                end = part.end();
                BigDecimal number = new BigDecimal(part.group(1));
                millis = millis.add(
                        switch (part.group(2)) {
                            case "h" -> number.multiply(BigDecimal.valueOf(3_600_000));
                            case "m" -> number.multiply(BigDecimal.valueOf(60_000));
                            case "s" -> number.multiply(BigDecimal.valueOf(1000));
                            default -> number;
                        });
            }
            return end == value.length() ? capped(millis) : null;
        }

        /** An RFC 3339 time ({@code 2026-11-28T10:00:30Z}), as the wait until then from {@code clock}'s now. */
        static Duration rfc3339(String value, Clock clock) {
            try {
                Duration wait = Duration.between(
                        clock.instant(), OffsetDateTime.parse(value).toInstant());
                return wait.isNegative() ? Duration.ZERO : wait.compareTo(MAX) > 0 ? MAX : wait;
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        /** Gemini's {@code error.details[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "37s"}]}. */
        static Duration retryInfo(String body) {
            if (body == null || body.isEmpty()) {
                return null;
            }
            try {
                for (JsonNode detail : MAPPER.readTree(body).path("error").path("details")) {
                    String delay = detail.path("retryDelay").asText("");
                    if (detail.path("@type").asText("").endsWith("google.rpc.RetryInfo") && delay.endsWith("s")) {
                        return capped(new BigDecimal(delay.substring(0, delay.length() - 1)).movePointRight(3));
                    }
                }
            } catch (IOException | RuntimeException notJson) {
                return null;
            }
            return null;
        }

        private static Duration capped(BigDecimal millis) {
            if (millis.signum() < 0) {
                return null;
            }
            long whole = millis.setScale(0, RoundingMode.CEILING)
                    .min(BigDecimal.valueOf(MAX.toMillis()))
                    .longValue();
            return Duration.ofMillis(whole);
        }

        private static String header(Map<String, List<String>> headers, String... names) {
            for (String name : names) {
                for (Map.Entry<String, List<String>> header : headers.entrySet()) {
                    if (header.getKey() != null
                            && header.getKey().equalsIgnoreCase(name)
                            && header.getValue() != null
                            && !header.getValue().isEmpty()) {
                        return header.getValue().get(0).strip();
                    }
                }
            }
            return null;
        }
    }
}
