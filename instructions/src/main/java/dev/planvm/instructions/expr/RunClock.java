package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * The run's clock: the instant the date/time helpers take for "now" and the time zone they count
 * days in. It is fixed once per run (every {@code now} of one run is the same instant) and kept with
 * the run (trace, run store, recorded cassette), so a replay or a resume computes the same dates.
 * Nothing reads the system clock while an expression is evaluated.
 *
 * @param now  the run's "now", kept to the millisecond
 * @param zone the run's time zone (a region such as {@code Europe/Oslo}, or a fixed offset)
 */
public record RunClock(Instant now, ZoneId zone) {

    /**
     * @throws IllegalArgumentException when {@code now} falls outside the years 1 to 9999 in {@code zone}
     */
    public RunClock {
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(zone, "zone");
        now = now.truncatedTo(ChronoUnit.MILLIS);
        int year;
        try {
            year = now.atZone(zone).getYear();
        } catch (DateTimeException e) {
            year = 0;
        }
        if (year < DateValue.MIN_YEAR || year > DateValue.MAX_YEAR) {
            throw new IllegalArgumentException("the clock must show a year from 1 to 9999, not " + now);
        }
    }

    /** The clock's current instant and zone, read once. */
    public static RunClock of(Clock clock) {
        return new RunClock(clock.instant(), clock.getZone());
    }

    /** The same instant in another zone. */
    public RunClock withZone(ZoneId value) {
        return new RunClock(now, value);
    }

    /** Another instant in the same zone. */
    public RunClock withNow(Instant value) {
        return new RunClock(value, zone);
    }

    /** {@code {"now": "2026-11-26T08:00:00Z", "tz": "Europe/Oslo"}}: how traces, stores and cassettes keep it. */
    public ObjectNode toJson() {
        return JsonNodeFactory.instance.objectNode().put("now", now.toString()).put("tz", zone.getId());
    }

    /**
     * The clock {@link #toJson()} wrote; empty for anything else (absent, null, malformed), so a
     * document of an earlier version, or a damaged one, reads as having no clock.
     */
    public static Optional<RunClock> fromJson(JsonNode json) {
        if (json == null
                || !json.isObject()
                || !json.path("now").isTextual()
                || !json.path("tz").isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new RunClock(
                    Instant.parse(json.get("now").textValue()),
                    zone(json.get("tz").textValue())));
        } catch (IllegalArgumentException | DateTimeException e) {
            return Optional.empty();
        }
    }

    /**
     * A time zone as {@code --tz} takes it: a region ({@code Europe/Oslo}, {@code UTC}) or an offset
     * ({@code +01:00}).
     *
     * @throws IllegalArgumentException with a sentence when it names no zone
     */
    public static ZoneId zone(String text) {
        try {
            return ZoneId.of(text.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not a time zone: write a region such as Europe/Oslo or"
                            + " America/New_York, UTC, or an offset such as +01:00");
        }
    }

    /**
     * An instant as {@code --now} takes it: {@code 2026-11-26T08:00:00Z}, with an offset
     * ({@code 2026-11-26T09:00:00+01:00}), or local to {@code zone} ({@code 2026-11-26T09:00},
     * {@code 2026-11-26}, which is its start of day).
     *
     * @throws IllegalArgumentException with a sentence when it is none of these
     */
    public static Instant instant(String text, ZoneId zone) {
        String t = text.trim();
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException notOffset) {
            // try the local forms
        }
        try {
            return LocalDateTime.parse(t).atZone(zone).toInstant();
        } catch (DateTimeParseException notLocal) {
            // try a date
        }
        try {
            return LocalDate.parse(t).atStartOfDay(zone).toInstant();
        } catch (DateTimeParseException notDate) {
            throw new IllegalArgumentException("'" + text + "' is not an instant: write 2026-11-26T09:00:00Z, "
                    + "2026-11-26T09:00:00+01:00, or 2026-11-26T09:00 or 2026-11-26 in the run's time zone");
        }
    }

    /** {@code 2026-11-26T08:00:00Z in Europe/Oslo}, for messages. */
    @Override
    public String toString() {
        return now + " in " + zone.getId();
    }
}
