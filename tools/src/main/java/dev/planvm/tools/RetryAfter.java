package dev.planvm.tools;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Reads how long a server asks to wait before the next request: {@code retry-after-ms}
 * (milliseconds, sent by OpenAI) when present, else {@code Retry-After} (RFC 9110: delay-seconds
 * or an HTTP date). A value that does not parse, or a date in the past, counts as absent / zero.
 * For tools that call HTTP services: pass the result to {@link ToolException#retryAfter}.
 */
public final class RetryAfter {

    private RetryAfter() {}

    /** The wait the headers ask for, or {@code null} when they ask for none. Header names in any case. */
    public static Duration from(Map<String, List<String>> headers, Clock clock) {
        Duration millis = parseNumber(first(headers, "retry-after-ms"), 3);
        if (millis != null) {
            return millis;
        }
        String value = first(headers, "retry-after");
        if (value == null) {
            return null;
        }
        Duration seconds = parseNumber(value, 0);
        return seconds != null ? seconds : parseDate(value, clock);
    }

    private static String first(Map<String, List<String>> headers, String name) {
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if (header.getKey() != null
                    && header.getKey().equalsIgnoreCase(name)
                    && header.getValue() != null
                    && !header.getValue().isEmpty()) {
                return header.getValue().get(0).strip();
            }
        }
        return null;
    }

    /** A non-negative number of units of 10^-{@code scale} seconds, as a duration; null when not one. */
    private static Duration parseNumber(String value, int scale) {
        if (value == null || value.isEmpty() || value.length() > 20) {
            return null;
        }
        try {
            BigDecimal number = new BigDecimal(value);
            if (number.signum() < 0) {
                return null;
            }
            return Duration.ofMillis(number.movePointRight(3 - scale)
                    .setScale(0, java.math.RoundingMode.CEILING)
                    .longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            return null;
        }
    }

    private static Duration parseDate(String value, Clock clock) {
        try {
            ZonedDateTime when = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME);
            Duration wait = Duration.between(clock.instant(), when.toInstant());
            return wait.isNegative() ? Duration.ZERO : wait;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
