package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Optional;

/**
 * The date/time helpers, computed from the run's {@link RunClock} only (see {@link DateValue} for
 * the forms of the values):
 *
 * <ul>
 *   <li>{@code today}, {@code tomorrow}, {@code yesterday}: dates in the run's zone; {@code now}: the
 *       run's instant as a date-time in its zone; {@code morning} (09:00), {@code midday} (12:00),
 *       {@code afternoon} (15:00), {@code evening} (18:00), {@code night} (21:00),
 *       {@code closeofbusiness} (17:00), {@code endofday} (23:59:59): today at that time.</li>
 *   <li>{@code next(x)}, {@code last(x)}, {@code this(x)}: for a weekday, the first such day after
 *       today, the last one before today (both never today: on a Thursday {@code next(Thursday)} is
 *       a week later), and that day of the current week (weeks run Monday to Sunday); for
 *       {@code day}, {@code week}, {@code month}, {@code year}, the first day of the next, previous
 *       or current one (a date; weeks start on Monday); for {@code hour}, its start (a date-time).</li>
 *   <li>{@code d.at(time)}: that time of day on d's date; {@code d.morning} and the other parts of the day
 *       likewise. {@code d.plus(n, unit)}, {@code d.minus(n, unit)} with minute(s), hour(s), day(s),
 *       week(s), month(s), year(s): minutes and hours are elapsed time, days and longer keep the time
 *       of day on the calendar; a month or year that has no such day ends on its last day
 *       (Jan 31 plus 1 month is Feb 28, or 29). At most 1,000,000 units at a time.</li>
 * </ul>
 */
final class DateFunctions {

    private static final long MAX_UNITS = 1_000_000;

    private DateFunctions() {}

    /** The value of the bare helper {@code name} ({@link DateNames#CONSTANTS}). */
    static JsonNode constant(String name, RunClock clock) {
        LocalDate today = today(clock);
        return switch (name) {
            case "today" -> new DateValue.Date(today).json();
            case "tomorrow" -> new DateValue.Date(today.plusDays(1)).json();
            case "yesterday" -> new DateValue.Date(today.minusDays(1)).json();
            case "now" -> new DateValue.Offset(clock.now().atZone(clock.zone()).toOffsetDateTime()).json();
            default ->
                DateValue.at(today, DateNames.PARTS_OF_DAY.get(name), clock.zone())
                        .json();
        };
    }

    /** {@code next(x)}, {@code last(x)} or {@code this(x)}: {@code function} is which. */
    static JsonNode period(String function, JsonNode x, RunClock clock) {
        String word = DateNames.word(function, x, DateNames.periods());
        LocalDate today = today(clock);
        int step = function.equals("next") ? 1 : function.equals("last") ? -1 : 0;
        Optional<DayOfWeek> weekday = DateNames.weekday(word);
        if (weekday.isPresent()) {
            DayOfWeek day = weekday.get();
            LocalDate date = step > 0
                    ? today.with(TemporalAdjusters.next(day))
                    : step < 0
                            ? today.with(TemporalAdjusters.previous(day))
                            : today.with(ChronoField.DAY_OF_WEEK, day.getValue());
            return new DateValue.Date(date).json();
        }
        ChronoUnit unit = DateNames.unit(word)
                .filter(u -> u != ChronoUnit.MINUTES)
                .orElseThrow(() -> new EvaluationException(
                        function + "() takes " + DateNames.periods() + ", not " + Values.describe(x)));
        if (unit == ChronoUnit.HOURS) {
            ZonedDateTime hour = clock.now()
                    .atZone(clock.zone())
                    .truncatedTo(ChronoUnit.HOURS)
                    .plusHours(step);
            return new DateValue.Offset(hour.toOffsetDateTime()).json();
        }
        LocalDate start = switch (unit) {
            case WEEKS -> today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTHS -> today.withDayOfMonth(1);
            case YEARS -> today.withDayOfYear(1);
            default -> today;
        };
        return new DateValue.Date(start.plus(step, unit)).json();
    }

    /** {@code target.at(time)}. */
    static JsonNode at(JsonNode target, JsonNode time, Variables vars) {
        DateValue value = DateValue.parse(target).orElseThrow(() -> DateValue.needed("at", target));
        return withTime(value, TimeOfDay.parse(time), vars).json();
    }

    /** {@code target.morning} and the other parts of the day, when {@code target} is a date/time; else empty. */
    static Optional<JsonNode> partOfDay(JsonNode target, String name, Variables vars) {
        LocalTime time = DateNames.PARTS_OF_DAY.get(name.toLowerCase(Locale.ROOT));
        if (time == null) {
            return Optional.empty();
        }
        return DateValue.parse(target).map(value -> withTime(value, time, vars).json());
    }

    /** {@code target.plus(n, unit)} ({@code sign} 1) or {@code target.minus(n, unit)} ({@code sign} -1). */
    static JsonNode plus(String function, JsonNode target, JsonNode n, JsonNode unitName, int sign, Variables vars) {
        DateValue value = DateValue.parse(target).orElseThrow(() -> DateValue.needed(function, target));
        long amount = sign * count(function, n);
        ChronoUnit unit = DateNames.unit(
                        DateNames.word(function, unitName, "a unit as its second argument (" + DateNames.units() + ")"))
                .orElseThrow(() -> new EvaluationException(Values.describe(unitName)
                                .replaceFirst("^text ", "") + " is not a unit: write " + DateNames.units()));
        try {
            if (value instanceof DateValue.Date date) {
                if (unit.isDateBased()) {
                    return new DateValue.Date(date.date().plus(amount, unit)).json();
                }
                ZoneId zone = clock(vars, function).zone();
                return new DateValue.Offset(date.date()
                                .atStartOfDay(zone)
                                .plus(amount, unit)
                                .toOffsetDateTime())
                        .json();
            }
            if (value instanceof DateValue.Local local) {
                return new DateValue.Local(local.dateTime().plus(amount, unit)).json();
            }
            OffsetDateTime odt = ((DateValue.Offset) value).dateTime();
            ZoneId zone = clock(vars, function).zone();
            if (!DateValue.inZone(odt, zone)) {
                return new DateValue.Offset(odt.plus(amount, unit)).json();
            }
            ZonedDateTime zoned = DateValue.zoned(odt.toLocalDateTime(), zone, odt.getOffset());
            return new DateValue.Offset(zoned.plus(amount, unit).toOffsetDateTime()).json();
        } catch (DateTimeException | ArithmeticException e) {
            throw DateValue.outOfRange();
        }
    }

    /** The number of units of {@code plus} or {@code minus}: a whole number up to {@link #MAX_UNITS}. */
    private static long count(String function, JsonNode n) {
        if (!n.isNumber() || n.doubleValue() != Math.rint(n.doubleValue())) {
            throw new EvaluationException(
                    function + "() takes a whole number of units first, not " + Values.describe(n));
        }
        double d = n.doubleValue();
        if (Math.abs(d) > MAX_UNITS) {
            throw new EvaluationException(function + "() moves at most " + String.format(Locale.ROOT, "%,d", MAX_UNITS)
                    + " units at a time, not " + JsNumbers.render(n));
        }
        return (long) d;
    }

    /** {@code value} at {@code time}: a date gets the run's zone; a date-time keeps its zone or offset. */
    private static DateValue withTime(DateValue value, LocalTime time, Variables vars) {
        if (value instanceof DateValue.Local local) {
            return new DateValue.Local(LocalDateTime.of(local.dateTime().toLocalDate(), time));
        }
        ZoneId zone = clock(vars, "at").zone();
        if (value instanceof DateValue.Date date) {
            return DateValue.at(date.date(), time, zone);
        }
        OffsetDateTime odt = ((DateValue.Offset) value).dateTime();
        if (!DateValue.inZone(odt, zone)) {
            return new DateValue.Offset(odt.with(time));
        }
        return new DateValue.Offset(DateValue.zoned(LocalDateTime.of(odt.toLocalDate(), time), zone, null)
                .toOffsetDateTime());
    }

    private static LocalDate today(RunClock clock) {
        return clock.now().atZone(clock.zone()).toLocalDate();
    }

    /** The run's clock, or the error saying that this evaluation has none. */
    static RunClock clock(Variables vars, String helper) {
        return vars.clock()
                .orElseThrow(() -> new EvaluationException(helper
                        + " needs the run's clock, and this evaluation has none (give the variables a RunClock)"));
    }
}
