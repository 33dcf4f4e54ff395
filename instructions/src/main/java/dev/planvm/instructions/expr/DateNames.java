package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The words of the date/time helpers: the names a plan writes bare ({@code today}, {@code morning}),
 * the weekdays and units {@code next(...)}, {@code last(...)}, {@code this(...)}, {@code plus} and
 * {@code minus} take, and the time of each part of the day. Weekdays and units are read in any case
 * ({@code Thursday}, {@code thursday}); units also in the plural ({@code days}).
 */
final class DateNames {

    /** The names that stand for a value when no variable of that name is set. */
    static final List<String> CONSTANTS = List.of(
            "today",
            "tomorrow",
            "yesterday",
            "now",
            "morning",
            "midday",
            "afternoon",
            "evening",
            "night",
            "endofday",
            "closeofbusiness");

    /** The parts of the day and their times (also readable as {@code .morning} of a date). */
    static final Map<String, LocalTime> PARTS_OF_DAY = parts();

    /** The units of {@code plus} and {@code minus}, singular, in order. */
    static final List<String> UNITS = List.of("minute", "hour", "day", "week", "month", "year");

    /** The units {@code next}, {@code last} and {@code this} take besides weekdays. */
    static final List<String> PERIODS = List.of("hour", "day", "week", "month", "year");

    private DateNames() {}

    private static Map<String, LocalTime> parts() {
        Map<String, LocalTime> parts = new LinkedHashMap<>();
        parts.put("morning", LocalTime.of(9, 0));
        parts.put("midday", LocalTime.NOON);
        parts.put("afternoon", LocalTime.of(15, 0));
        parts.put("evening", LocalTime.of(18, 0));
        parts.put("night", LocalTime.of(21, 0));
        parts.put("endofday", LocalTime.of(23, 59, 59));
        parts.put("closeofbusiness", LocalTime.of(17, 0));
        return java.util.Collections.unmodifiableMap(parts);
    }

    /** Whether a bare identifier with this name, as an argument of a helper, is the word itself. */
    static boolean isWord(String name) {
        return weekday(name).isPresent() || unit(name).isPresent();
    }

    /** The weekday {@code name} names ({@code Thursday}, any case), if any. */
    static Optional<DayOfWeek> weekday(String name) {
        String n = name.trim().toUpperCase(Locale.ROOT);
        for (DayOfWeek day : DayOfWeek.values()) {
            if (day.name().equals(n)) {
                return Optional.of(day);
            }
        }
        return Optional.empty();
    }

    /** The unit {@code name} names ({@code day} or {@code days}, any case), if any. */
    static Optional<ChronoUnit> unit(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.endsWith("s")) {
            n = n.substring(0, n.length() - 1);
        }
        return switch (n) {
            case "minute" -> Optional.of(ChronoUnit.MINUTES);
            case "hour" -> Optional.of(ChronoUnit.HOURS);
            case "day" -> Optional.of(ChronoUnit.DAYS);
            case "week" -> Optional.of(ChronoUnit.WEEKS);
            case "month" -> Optional.of(ChronoUnit.MONTHS);
            case "year" -> Optional.of(ChronoUnit.YEARS);
            default -> Optional.empty();
        };
    }

    /** The text of a word argument, or the error naming what {@code function} takes. */
    static String word(String function, JsonNode value, String takes) {
        if (!value.isTextual()) {
            throw new EvaluationException(function + "() takes " + takes + ", not " + Values.describe(value));
        }
        return value.textValue();
    }

    /** "a weekday (Monday to Sunday) or hour, day, week, month or year", for messages. */
    static String periods() {
        return "a weekday (Monday to Sunday) or " + String.join(", ", PERIODS.subList(0, PERIODS.size() - 1)) + " or "
                + PERIODS.get(PERIODS.size() - 1);
    }

    /** "minute(s), hour(s), ... or year(s)", for messages. */
    static String units() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < UNITS.size(); i++) {
            sb.append(i == 0 ? "" : i == UNITS.size() - 1 ? " or " : ", ")
                    .append(UNITS.get(i))
                    .append("(s)");
        }
        return sb.toString();
    }

    /** Whether {@code name} is one of the bare helper names (a variable of that name shadows it). */
    static boolean isConstant(String name) {
        return CONSTANTS.contains(name);
    }

    /** Every name a plan may write bare or as an argument, for the dialects' name tables. */
    static Set<String> words() {
        Set<String> words = new java.util.TreeSet<>(CONSTANTS);
        for (DayOfWeek day : DayOfWeek.values()) {
            String n = day.name().toLowerCase(Locale.ROOT);
            words.add(Character.toUpperCase(n.charAt(0)) + n.substring(1));
        }
        for (String unit : UNITS) {
            words.add(unit);
            words.add(unit + "s");
        }
        return words;
    }
}
