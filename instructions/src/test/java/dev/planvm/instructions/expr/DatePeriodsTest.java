package dev.planvm.instructions.expr;

import static dev.planvm.instructions.expr.DateTimeHelpersTest.eval;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seed 001's {@code startOf(unit)} and {@code endOf(unit)} against fixed clocks, every expected value
 * worked out by hand from a calendar: Thursday 2026-11-26 is "today"; weeks run Monday to Sunday;
 * Europe/Oslo changes to summer time on 2026-03-29 at 02:00 (a day of 23 hours) and back on 2026-10-25 at
 * 03:00 (25 hours, 02:00-02:59 twice); America/Santiago's summer time starts at midnight between
 * 2026-09-05 and 09-06, so 2026-09-06 has no 00:00 and begins at 01:00.
 */
class DatePeriodsTest {

    private static final ZoneId OSLO = ZoneId.of("Europe/Oslo");
    /** Thursday 2026-11-26, 12:34:56.789 in Oslo (UTC+1). */
    private static final RunClock THURSDAY = new RunClock(Instant.parse("2026-11-26T11:34:56.789Z"), OSLO);

    @Nested
    class Of_a_date_time_in_the_runs_zone {

        @ParameterizedTest(name = "now.{0} is {1}")
        @CsvSource({
            "startOf(hour), 2026-11-26T12:00:00+01:00",
            "endOf(hour), 2026-11-26T12:59:59+01:00",
            "startOf(day), 2026-11-26T00:00:00+01:00",
            "endOf(day), 2026-11-26T23:59:59+01:00",
            "startOf(week), 2026-11-23T00:00:00+01:00",
            "endOf(week), 2026-11-29T23:59:59+01:00",
            "startOf(month), 2026-11-01T00:00:00+01:00",
            "endOf(month), 2026-11-30T23:59:59+01:00",
            "startOf(year), 2026-01-01T00:00:00+01:00",
            "endOf(year), 2026-12-31T23:59:59+01:00"
        })
        void is_the_first_moment_or_the_last_second_of_the_period(String call, String expected) {
            assertThat(eval("now." + call, THURSDAY)).isEqualTo(expected);
        }

        @Test
        void counts_in_the_runs_zone_with_the_offset_of_each_end() {
            // the year starts in winter time (+01:00); a July date-time's year ends in winter time too
            assertThat(eval("'2026-07-15T10:00:00+02:00'.startOf(year)", THURSDAY))
                    .isEqualTo("2026-01-01T00:00:00+01:00");
            assertThat(eval("'2026-07-15T10:00:00+02:00'.endOf(year)", THURSDAY))
                    .isEqualTo("2026-12-31T23:59:59+01:00");
            assertThat(eval("'2026-03-10T12:00:00+01:00'.endOf(month)", THURSDAY))
                    .isEqualTo("2026-03-31T23:59:59+02:00");
        }
    }

    @Nested
    class Of_a_date {

        @ParameterizedTest(name = "today.{0} is {1}")
        @CsvSource({
            "startOf(day), 2026-11-26",
            "endOf(day), 2026-11-26",
            "startOf(week), 2026-11-23",
            "endOf(week), 2026-11-29",
            "startOf(month), 2026-11-01",
            "endOf(month), 2026-11-30",
            "startOf(year), 2026-01-01",
            "endOf(year), 2026-12-31",
            "startOf(hour), 2026-11-26T00:00:00+01:00",
            "endOf(hour), 2026-11-26T00:59:59+01:00"
        })
        void stays_a_date_for_days_and_longer_and_counts_hours_from_its_start(String call, String expected) {
            assertThat(eval("today." + call, THURSDAY)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource(
                quoteCharacter = '"',
                value = {
                    "'2024-02-10'.endOf(month), 2024-02-29",
                    "'2026-02-10'.endOf(month), 2026-02-28",
                    "'2024-02-29'.endOf(year), 2024-12-31",
                    "'2024-02-29'.startOf(month), 2024-02-01",
                    "'2024-02-29T10:00:00'.endOf(month), 2024-02-29T23:59:59",
                    "'2100-02-03'.endOf(month), 2100-02-28",
                    "'2000-02-03'.endOf(month), 2000-02-29"
                })
        void knows_leap_years(String expression, String expected) {
            assertThat(eval(expression, THURSDAY)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource(
                quoteCharacter = '"',
                value = {
                    "'2026-11-29'.startOf(week), 2026-11-23", // a Sunday ends its week
                    "'2026-11-29'.endOf(week), 2026-11-29",
                    "'2026-11-30'.startOf(week), 2026-11-30", // a Monday starts one
                    "'2027-01-01'.startOf(week), 2026-12-28", // weeks cross years
                    "'2027-01-01'.endOf(week), 2027-01-03",
                    "'2024-12-31'.startOf(week), 2024-12-30"
                })
        void weeks_run_monday_to_sunday(String expression, String expected) {
            assertThat(eval(expression, THURSDAY)).isEqualTo(expected);
        }
    }

    @Nested
    class Across_daylight_saving_changes {

        @Test
        void a_spring_day_of_23_hours_starts_in_winter_time_and_ends_in_summer_time() {
            assertThat(eval("'2026-03-29T12:00:00+02:00'.startOf(day)", THURSDAY))
                    .isEqualTo("2026-03-29T00:00:00+01:00");
            assertThat(eval("'2026-03-29T12:00:00+02:00'.endOf(day)", THURSDAY)).isEqualTo("2026-03-29T23:59:59+02:00");
            assertThat(eval("'2026-03-29T12:00:00+02:00'.startOf(week)", THURSDAY))
                    .isEqualTo("2026-03-23T00:00:00+01:00");
            assertThat(eval("'2026-03-29T01:30:00+01:00'.endOf(hour)", THURSDAY))
                    .isEqualTo("2026-03-29T01:59:59+01:00"); // the next hour starts at 03:00
        }

        @Test
        void the_repeated_autumn_hour_is_two_hours_each_with_its_own_offset() {
            assertThat(eval("'2026-10-25T02:30:00+02:00'.startOf(hour)", THURSDAY))
                    .isEqualTo("2026-10-25T02:00:00+02:00");
            assertThat(eval("'2026-10-25T02:30:00+02:00'.endOf(hour)", THURSDAY))
                    .isEqualTo("2026-10-25T02:59:59+02:00");
            assertThat(eval("'2026-10-25T02:30:00+01:00'.startOf(hour)", THURSDAY))
                    .isEqualTo("2026-10-25T02:00:00+01:00");
            assertThat(eval("'2026-10-25T02:30:00+01:00'.endOf(hour)", THURSDAY))
                    .isEqualTo("2026-10-25T02:59:59+01:00");
            assertThat(eval("'2026-10-25T12:00:00+01:00'.startOf(day)", THURSDAY))
                    .isEqualTo("2026-10-25T00:00:00+02:00");
            assertThat(eval("'2026-10-25T12:00:00+01:00'.endOf(day)", THURSDAY)).isEqualTo("2026-10-25T23:59:59+01:00");
        }

        @Test
        void a_day_whose_midnight_does_not_exist_starts_at_its_first_moment() {
            RunClock santiago = THURSDAY.withZone(ZoneId.of("America/Santiago"));
            assertThat(eval("'2026-09-06'.startOf(hour)", santiago)).isEqualTo("2026-09-06T01:00:00-03:00");
            assertThat(eval("'2026-09-06T12:00:00-03:00'.startOf(day)", santiago))
                    .isEqualTo("2026-09-06T01:00:00-03:00");
            assertThat(eval("'2026-09-05T12:00:00-04:00'.endOf(day)", santiago)).isEqualTo("2026-09-05T23:59:59-04:00");
        }
    }

    @Nested
    class Other_forms {

        @Test
        void a_date_time_at_another_offset_keeps_it() {
            assertThat(eval("'2026-11-26T20:15:00-05:00'.startOf(day)", THURSDAY))
                    .isEqualTo("2026-11-26T00:00:00-05:00");
            assertThat(eval("'2026-11-26T20:15:00-05:00'.endOf(hour)", THURSDAY))
                    .isEqualTo("2026-11-26T20:59:59-05:00");
        }

        @Test
        void a_local_date_time_stays_local() {
            assertThat(eval("'2026-03-29T12:00:00'.startOf(day)", THURSDAY)).isEqualTo("2026-03-29T00:00:00");
            assertThat(eval("'2026-03-29T12:00:00'.endOf(week)", THURSDAY)).isEqualTo("2026-03-29T23:59:59");
        }

        @Test
        void chains_with_the_other_methods() {
            assertThat(eval("next(month).endOf(month).at('5pm')", THURSDAY)).isEqualTo("2026-12-31T17:00:00+01:00");
            assertThat(eval("today.startOf(month).plus(1, month).minus(1, day)", THURSDAY))
                    .isEqualTo(eval("today.endOf(month)", THURSDAY));
        }
    }

    @Nested
    class Words_and_errors {

        @Test
        void the_unit_is_a_word_in_any_case_or_plural_even_when_a_variable_has_its_name() {
            assertThat(eval("today.startOf(week)", THURSDAY, "{\"week\": \"year\"}"))
                    .isEqualTo("2026-11-23");
            assertThat(eval("today.endOf(Months)", THURSDAY)).isEqualTo("2026-11-30");
            assertThat(eval("today.startOf('year')", THURSDAY)).isEqualTo("2026-01-01");
            assertThat(eval("today.startOf((unit))", THURSDAY, "{\"unit\": \"week\"}"))
                    .isEqualTo("2026-11-23");
            assertThat(Exprs.render(ExprParser.parse("today.startOf(week).endOf( day )")))
                    .isEqualTo("today.startOf('week').endOf('day')");
        }

        @Test
        void refuses_other_units_other_values_and_other_arities() {
            assertThatThrownBy(() -> eval("today.startOf(minute)", THURSDAY))
                    .isInstanceOf(EvaluationException.class)
                    .hasMessageContaining("startOf() takes a unit (hour, day, week, month or year), not 'minute'");
            assertThatThrownBy(() -> eval("today.endOf(2)", THURSDAY))
                    .hasMessageContaining("endOf() takes a unit (hour, day, week, month or year), not the number 2");
            assertThatThrownBy(() -> eval("'soon'.endOf(day)", THURSDAY))
                    .hasMessageContaining("endOf() needs a date or a date-time");
            assertThatThrownBy(() -> ExprParser.parse("today.startOf()"))
                    .isInstanceOf(ExprSyntaxException.class)
                    .hasMessageContaining("startOf() takes 1 argument, got 0");
        }

        @Test
        void a_result_past_the_years_1_to_9999_is_an_error() {
            assertThat(eval("'9999-12-31T12:00:00+01:00'.endOf(year)", THURSDAY))
                    .isEqualTo("9999-12-31T23:59:59+01:00");
            assertThatThrownBy(() -> eval("'9999-12-31'.endOf(week)", THURSDAY)) // a Friday: its Sunday is in 10000
                    .hasMessageContaining("outside the years 1 to 9999");
        }
    }
}
