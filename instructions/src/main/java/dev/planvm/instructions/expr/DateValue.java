package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A date/time value of the expression language. Values stay JSON: a date/time is ISO-8601 text, in
 * one of three forms, and every helper keeps the form it was given unless it needs a time of day:
 *
 * <ul>
 *   <li>a <b>date</b>, {@code 2026-11-26} ({@code today}, {@code next(Thursday)}, {@code plus(2, days)} of a date);</li>
 *   <li>a <b>date-time with an offset</b>, {@code 2026-11-26T09:00:00+01:00} ({@code now}, {@code .at(...)}
 *       of a date, the parts of the day); the offset is the run's time zone's at that instant
 *       ({@code Z} when it is zero);</li>
 *   <li>a <b>local date-time</b>, {@code 2026-11-26T09:00:00}, as a tool may answer one: it has no zone,
 *       so it moves on the calendar only (no daylight-saving changes) and stays local.</li>
 * </ul>
 *
 * Seconds are always written; fractions of a second only when there are any. Years run from 1 to 9999.
 */
sealed interface DateValue {

    int MIN_YEAR = 1;
    int MAX_YEAR = 9999;

    /** A calendar date. */
    record Date(LocalDate date) implements DateValue {
        @Override
        public String text() {
            return date.toString();
        }
    }

    /** A date and time with no zone. */
    record Local(LocalDateTime dateTime) implements DateValue {
        @Override
        public String text() {
            return write(dateTime);
        }
    }

    /** A date and time at an offset from UTC. */
    record Offset(OffsetDateTime dateTime) implements DateValue {
        @Override
        public String text() {
            return write(dateTime.toLocalDateTime()) + dateTime.getOffset().getId();
        }
    }

    /** The ISO-8601 text of the value. */
    String text();

    /** {@code 2026-11-26T09:00:00}: seconds always, a fraction in milli-, micro- or nanoseconds when not zero. */
    private static String write(LocalDateTime t) {
        int nanos = t.getNano();
        String fraction = nanos == 0
                ? ""
                : nanos % 1_000_000 == 0
                        ? String.format(".%03d", nanos / 1_000_000)
                        : nanos % 1_000 == 0 ? String.format(".%06d", nanos / 1_000) : String.format(".%09d", nanos);
        return String.format(
                java.util.Locale.ROOT,
                "%04d-%02d-%02dT%02d:%02d:%02d%s",
                t.getYear(),
                t.getMonthValue(),
                t.getDayOfMonth(),
                t.getHour(),
                t.getMinute(),
                t.getSecond(),
                fraction);
    }

    /** The value as JSON text, refused when its year is outside 1 to 9999. */
    default JsonNode json() {
        int year = this instanceof Date d
                ? d.date().getYear()
                : this instanceof Local l
                        ? l.dateTime().getYear()
                        : ((Offset) this).dateTime().getYear();
        if (year < MIN_YEAR || year > MAX_YEAR) {
            throw outOfRange();
        }
        return TextNode.valueOf(text());
    }

    /** The date/time {@code value} holds: ISO-8601 text in one of the three forms; empty for anything else. */
    static Optional<DateValue> parse(JsonNode value) {
        if (!value.isTextual()) {
            return Optional.empty();
        }
        String text = value.textValue().trim();
        if (text.length() < 10 || text.length() > 40 || !Character.isDigit(text.charAt(0))) {
            return Optional.empty();
        }
        try {
            if (text.length() == 10) {
                return inRange(new Date(LocalDate.parse(text)));
            }
            char last = text.charAt(text.length() - 1);
            boolean offset = last == 'Z' || last == 'z' || text.indexOf('+', 10) > 0 || text.indexOf('-', 10) > 0;
            return inRange(
                    offset
                            ? new Offset(OffsetDateTime.parse(text.replace('z', 'Z')))
                            : new Local(LocalDateTime.parse(text)));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<DateValue> inRange(DateValue value) {
        try {
            value.json();
            return Optional.of(value);
        } catch (EvaluationException e) {
            return Optional.empty();
        }
    }

    /** The error for a value of the wrong kind given to {@code function}. */
    static EvaluationException needed(String function, JsonNode got) {
        return new EvaluationException(function + "() needs a date or a date-time (ISO-8601 text such as 2026-11-26 or "
                + "2026-11-26T09:00:00+01:00), got " + Values.describe(got));
    }

    /** The error for a result past the years a value may have. */
    static EvaluationException outOfRange() {
        return new EvaluationException("the result would be outside the years " + MIN_YEAR + " to " + MAX_YEAR);
    }

    /** {@code date} at {@code time} in {@code zone}, with an offset (see {@link #zoned} for gaps and overlaps). */
    static Offset at(LocalDate date, LocalTime time, ZoneId zone) {
        return new Offset(zoned(LocalDateTime.of(date, time), zone, null).toOffsetDateTime());
    }

    /**
     * {@code local} in {@code zone}: a local time that does not exist there (the clocks jump forward)
     * moves on by the length of the jump (02:30 becomes 03:30); one that occurs twice (the clocks go
     * back) is the earlier, unless {@code preferred} is the offset of the later.
     */
    static ZonedDateTime zoned(LocalDateTime local, ZoneId zone, java.time.ZoneOffset preferred) {
        try {
            return ZonedDateTime.ofLocal(local, zone, preferred);
        } catch (DateTimeException e) {
            throw outOfRange();
        }
    }

    /** Whether {@code value} is in the run's zone: its offset is the zone's at that instant. */
    static boolean inZone(OffsetDateTime value, ZoneId zone) {
        try {
            return zone.getRules().getOffset(value.toInstant()).equals(value.getOffset());
        } catch (DateTimeException e) {
            return false;
        }
    }
}
