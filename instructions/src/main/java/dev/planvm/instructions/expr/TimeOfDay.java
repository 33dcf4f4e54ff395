package dev.planvm.instructions.expr;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalTime;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time of day {@code .at(time)} takes: {@code '3:00pm'}, {@code '3pm'}, {@code '3 PM'},
 * {@code '9:30 a.m.'}, {@code '15:00'}, {@code '15:00:30'}, a whole hour as a number ({@code 15}),
 * {@code 'noon'}, {@code 'midnight'}, a part of the day ({@code 'morning'}), or a date-time, whose
 * time of day is taken. {@code 12am} is midnight and {@code 12pm} noon.
 */
final class TimeOfDay {

    private static final Pattern CLOCK =
            Pattern.compile("(\\d{1,2})(?::(\\d{2}))?(?::(\\d{2}))?\\s*(am|pm|a\\.m\\.|p\\.m\\.)?");

    private TimeOfDay() {}

    /** The time {@code value} names, or the error saying how to write one. */
    static LocalTime parse(JsonNode value) {
        if (value.isNumber()) {
            double hour = value.doubleValue();
            if (hour == Math.rint(hour) && hour >= 0 && hour <= 23) {
                return LocalTime.of((int) hour, 0);
            }
            throw new EvaluationException(
                    "at() takes a whole hour from 0 to 23 as a number, not " + JsNumbers.render(value));
        }
        if (!value.isTextual()) {
            throw new EvaluationException(
                    "at() takes a time of day such as '3:00pm' or '15:00', not " + Values.describe(value));
        }
        String text = value.textValue();
        return ofText(text)
                .or(() -> DateValue.parse(value).flatMap(TimeOfDay::timeOf))
                .orElseThrow(() -> new EvaluationException(
                        Values.quote(text) + " is not a time of day: write 3:00pm, 15:00 or 15:00:30"));
    }

    private static Optional<LocalTime> ofText(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("noon")) {
            return Optional.of(LocalTime.NOON);
        }
        if (t.equals("midnight")) {
            return Optional.of(LocalTime.MIDNIGHT);
        }
        if (DateNames.PARTS_OF_DAY.containsKey(t)) {
            return Optional.of(DateNames.PARTS_OF_DAY.get(t));
        }
        if (t.length() > 20) {
            return Optional.empty();
        }
        Matcher m = CLOCK.matcher(t);
        if (!m.matches()) {
            return Optional.empty();
        }
        int hour = Integer.parseInt(m.group(1));
        int minute = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
        int second = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        String half = m.group(4);
        if (half != null) {
            if (hour < 1 || hour > 12) {
                return Optional.empty();
            }
            hour = hour % 12 + (half.startsWith("p") ? 12 : 0);
        }
        if (hour > 23 || minute > 59 || second > 59) {
            return Optional.empty();
        }
        return Optional.of(LocalTime.of(hour, minute, second));
    }

    private static Optional<LocalTime> timeOf(DateValue value) {
        if (value instanceof DateValue.Local local) {
            return Optional.of(local.dateTime().toLocalTime());
        }
        if (value instanceof DateValue.Offset offset) {
            return Optional.of(offset.dateTime().toLocalTime());
        }
        return Optional.empty();
    }
}
