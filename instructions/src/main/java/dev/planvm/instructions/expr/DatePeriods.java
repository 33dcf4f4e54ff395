package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Optional;

/**
 * Seed 001's {@code d.startOf(unit)} and {@code d.endOf(unit)}: the first and the last moment of the
 * hour, day, week, month or year that {@code d} falls in. The rules, the same as those of
 * {@code this(x)}:
 *
 * <ul>
 *   <li>Weeks run <b>Monday to Sunday</b> (ISO 8601): {@code startOf(week)} is a Monday,
 *       {@code endOf(week)} a Sunday.</li>
 *   <li>A <b>date</b> stays a date for a day, week, month or year ({@code '2024-02-10'.endOf(month)} is
 *       {@code 2024-02-29}): the first or last day of the period. Of an hour it becomes a date-time in
 *       the run's zone, counted from the day's start (as {@code plus(n, hours)} of a date is):
 *       {@code 00:00} and {@code 00:59:59}.</li>
 *   <li>A <b>date-time</b> gets the period's first moment, or its last whole second
 *       ({@code 23:59:59}, as {@code endofday} is): the start of the next period less one second of
 *       elapsed time. A date-time in the run's zone is counted in that zone, with its daylight-saving
 *       rules (a day of 23 or 25 hours ends at 23:59:59; a day whose midnight does not exist starts at
 *       its first moment); one at another offset keeps that offset; a local date-time stays local.</li>
 * </ul>
 */
final class DatePeriods {

    /** The units {@code startOf} and {@code endOf} take (seed 001's {@code DateMathUnits}). */
    static final List<ChronoUnit> UNITS =
            List.of(ChronoUnit.HOURS, ChronoUnit.DAYS, ChronoUnit.WEEKS, ChronoUnit.MONTHS, ChronoUnit.YEARS);

    private static final Duration LAST_SECOND = Duration.ofSeconds(1);

    private DatePeriods() {}

    /** {@code target.startOf(unit)} ({@code end} false) or {@code target.endOf(unit)} ({@code end} true). */
    static JsonNode bound(String function, JsonNode target, JsonNode unitName, boolean end, Variables vars) {
        DateValue value = DateValue.parse(target).orElseThrow(() -> DateValue.needed(function, target));
        ChronoUnit unit = unit(function, unitName);
        try {
            if (value instanceof DateValue.Date date) {
                if (unit == ChronoUnit.HOURS) {
                    ZoneId zone = DateFunctions.clock(vars, function).zone();
                    ZonedDateTime hour = date.date().atStartOfDay(zone); // a date counts from its start of day
                    return offset(end ? lastSecond(hour.plusHours(1)) : hour);
                }
                LocalDate first = firstDay(date.date(), unit);
                return new DateValue.Date(end ? first.plus(1, unit).minusDays(1) : first).json();
            }
            if (value instanceof DateValue.Local local) {
                LocalDateTime start = start(local.dateTime(), unit);
                return new DateValue.Local(end ? start.plus(1, unit).minus(LAST_SECOND) : start).json();
            }
            OffsetDateTime odt = ((DateValue.Offset) value).dateTime();
            ZoneId zone = DateFunctions.clock(vars, function).zone();
            if (!DateValue.inZone(odt, zone)) {
                OffsetDateTime start = odt.with(start(odt.toLocalDateTime(), unit));
                return new DateValue.Offset(end ? start.plus(1, unit).minus(LAST_SECOND) : start).json();
            }
            ZonedDateTime zoned = odt.atZoneSameInstant(zone);
            ZonedDateTime start = unit == ChronoUnit.HOURS
                    ? zoned.truncatedTo(ChronoUnit.HOURS)
                    : firstDay(zoned.toLocalDate(), unit).atStartOfDay(zone);
            if (!end) {
                return offset(start);
            }
            ZonedDateTime next = unit == ChronoUnit.HOURS
                    ? start.plusHours(1) // elapsed: the repeated hour of an autumn night is two hours
                    : firstDay(zoned.toLocalDate(), unit).plus(1, unit).atStartOfDay(zone);
            return offset(lastSecond(next));
        } catch (DateTimeException | ArithmeticException e) {
            throw DateValue.outOfRange();
        }
    }

    /** The unit a word names, refused unless it is one of {@link #UNITS}. */
    private static ChronoUnit unit(String function, JsonNode unitName) {
        String takes = "a unit (" + units() + ")";
        Optional<ChronoUnit> unit = DateNames.unit(DateNames.word(function, unitName, takes));
        if (unit.isEmpty() || !UNITS.contains(unit.get())) {
            throw new EvaluationException(function + "() takes " + takes + ", not "
                    + Values.describe(unitName).replaceFirst("^text ", ""));
        }
        return unit.get();
    }

    /** "hour, day, week, month or year", for messages. */
    static String units() {
        return "hour, day, week, month or year";
    }

    /** The first day of the day, week (Monday), month or year {@code date} is in. */
    private static LocalDate firstDay(LocalDate date, ChronoUnit unit) {
        return switch (unit) {
            case WEEKS -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTHS -> date.withDayOfMonth(1);
            case YEARS -> date.withDayOfYear(1);
            default -> date;
        };
    }

    /** The first moment of the period {@code t} is in, on the calendar (no zone). */
    private static LocalDateTime start(LocalDateTime t, ChronoUnit unit) {
        return unit == ChronoUnit.HOURS
                ? t.truncatedTo(ChronoUnit.HOURS)
                : firstDay(t.toLocalDate(), unit).atStartOfDay();
    }

    /** One second of elapsed time before {@code next}, the start of the next period. */
    private static ZonedDateTime lastSecond(ZonedDateTime next) {
        return next.minus(LAST_SECOND);
    }

    private static JsonNode offset(ZonedDateTime t) {
        return new DateValue.Offset(t.toOffsetDateTime()).json();
    }
}
