package dev.planvm.instructions.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The date/time helpers against fixed clocks. Every expected value is worked out by hand from a
 * calendar (Thursday 2026-11-26 is the usual "today"; Europe/Oslo changes to summer time on
 * 2026-03-29 at 02:00 and back on 2026-10-25 at 03:00; America/New_York on 2026-03-08 and 2026-11-01).
 */
class DateTimeHelpersTest {

    private static final ZoneId OSLO = ZoneId.of("Europe/Oslo");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    /** Thursday 2026-11-26, 12:00 in Oslo (UTC+1). */
    private static final RunClock THURSDAY_NOON = new RunClock(Instant.parse("2026-11-26T11:00:00Z"), OSLO);

    static String eval(String expression, RunClock clock) {
        return eval(expression, clock, "{}");
    }

    static String eval(String expression, RunClock clock, String variables) {
        JsonNode values = Fixtures.json(variables);
        JsonNode result = Evaluator.evaluate(ExprParser.parse(expression), Variables.of(values::get, clock));
        return result.isTextual() ? result.textValue() : result.toString();
    }

    @Nested
    class Bare_names {

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource({
            "today, 2026-11-26",
            "tomorrow, 2026-11-27",
            "yesterday, 2026-11-25",
            "now, 2026-11-26T12:00:00+01:00",
            "morning, 2026-11-26T09:00:00+01:00",
            "midday, 2026-11-26T12:00:00+01:00",
            "afternoon, 2026-11-26T15:00:00+01:00",
            "evening, 2026-11-26T18:00:00+01:00",
            "night, 2026-11-26T21:00:00+01:00",
            "closeofbusiness, 2026-11-26T17:00:00+01:00",
            "endofday, 2026-11-26T23:59:59+01:00"
        })
        void read_the_runs_clock_in_its_zone(String name, String expected) {
            assertThat(eval(name, THURSDAY_NOON)).isEqualTo(expected);
        }

        @Test
        void now_keeps_milliseconds_and_writes_zero_offsets_as_z() {
            RunClock utc = new RunClock(Instant.parse("2026-11-26T11:00:00.250Z"), ZoneId.of("UTC"));
            assertThat(eval("now", utc)).isEqualTo("2026-11-26T11:00:00.250Z");
        }

        @Test
        void the_day_is_the_day_in_the_runs_zone_not_in_utc() {
            RunClock lateInNewYork = new RunClock(Instant.parse("2026-11-27T03:00:00Z"), NEW_YORK); // 22:00 on the 26th
            assertThat(eval("today", lateInNewYork)).isEqualTo("2026-11-26");
            assertThat(eval("today", lateInNewYork.withZone(OSLO))).isEqualTo("2026-11-27");
        }

        @Test
        void a_variable_of_the_same_name_shadows_the_helper() {
            assertThat(eval("today + ' / ' + tomorrow", THURSDAY_NOON, "{\"today\": \"Monday\"}"))
                    .isEqualTo("Monday / 2026-11-27");
        }

        @Test
        void without_a_clock_a_helper_fails_with_a_sentence() {
            assertThatThrownBy(() -> Evaluator.evaluate(ExprParser.parse("tomorrow"), name -> null))
                    .isInstanceOf(EvaluationException.class)
                    .hasMessage("${tomorrow}: 'tomorrow' needs the run's clock, and this evaluation has none"
                            + " (give the variables a RunClock)");
        }

        @Test
        void other_names_stay_variables_that_must_be_set() {
            assertThatThrownBy(() -> eval("Thursday", THURSDAY_NOON))
                    .hasMessage("${Thursday}: variable 'Thursday' is not set");
        }
    }

    @Nested
    class Next_last_and_this {

        @ParameterizedTest(name = "{0} on Thursday 2026-11-26 is {1}")
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '"',
                value = {
                    "next(Thursday)|2026-12-03",
                    "last(Thursday)|2026-11-19",
                    "this(Thursday)|2026-11-26",
                    "next(Friday)|2026-11-27",
                    "last(Friday)|2026-11-20",
                    "next(Wednesday)|2026-12-02",
                    "last(Wednesday)|2026-11-25",
                    "this(Monday)|2026-11-23",
                    "this(Sunday)|2026-11-29",
                    "next(day)|2026-11-27",
                    "last(day)|2026-11-25",
                    "this(day)|2026-11-26",
                    "next(week)|2026-11-30",
                    "this(week)|2026-11-23",
                    "last(week)|2026-11-16",
                    "next(month)|2026-12-01",
                    "this(month)|2026-11-01",
                    "last(month)|2026-10-01",
                    "next(year)|2027-01-01",
                    "this(year)|2026-01-01",
                    "last(year)|2025-01-01",
                    "next(hour)|2026-11-26T13:00:00+01:00",
                    "this(hour)|2026-11-26T12:00:00+01:00",
                    "last(hour)|2026-11-26T11:00:00+01:00",
                    "next('thursday')|2026-12-03",
                    "next('WEEK')|2026-11-30",
                    "next(weeks)|2026-11-30"
                })
        void count_from_today(String expression, String expected) {
            assertThat(eval(expression, THURSDAY_NOON)).isEqualTo(expected);
        }

        @Test
        void last_month_from_the_31st_is_the_first_of_the_month_before() {
            RunClock march31 = new RunClock(Instant.parse("2026-03-31T10:00:00Z"), OSLO);
            assertThat(eval("last(month)", march31)).isEqualTo("2026-02-01");
            assertThat(eval("today.minus(1, month)", march31)).isEqualTo("2026-02-28");
        }

        @Test
        void a_variable_holding_the_word_works_in_parentheses_or_quoted() {
            assertThat(eval("next((day))", THURSDAY_NOON, "{\"day\": \"Monday\"}"))
                    .isEqualTo("2026-11-30");
            assertThat(eval("next(day)", THURSDAY_NOON, "{\"day\": \"Monday\"}"))
                    .isEqualTo("2026-11-27");
            assertThat(eval("next(which)", THURSDAY_NOON, "{\"which\": \"Saturday\"}"))
                    .isEqualTo("2026-11-28");
        }

        @Test
        void anything_else_is_refused_with_what_they_take() {
            assertThatThrownBy(() -> eval("next('fortnight')", THURSDAY_NOON))
                    .hasMessage("${next('fortnight')}: next() takes"
                            + " a weekday (Monday to Sunday) or hour, day, week, month or year, not text 'fortnight'");
            assertThatThrownBy(() -> eval("last(5)", THURSDAY_NOON))
                    .hasMessage("${last(5)}: last() takes"
                            + " a weekday (Monday to Sunday) or hour, day, week, month or year, not the number 5");
            assertThatThrownBy(() -> eval("this(minute)", THURSDAY_NOON)).hasMessageContaining("not text 'minute'");
        }
    }

    @Nested
    class At_and_parts_of_the_day {

        @ParameterizedTest(name = "at({0}) is {1}")
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '"',
                value = {
                    "'9:00am'|2026-12-03T09:00:00+01:00",
                    "'3:00pm'|2026-12-03T15:00:00+01:00",
                    "'3pm'|2026-12-03T15:00:00+01:00",
                    "'3 PM'|2026-12-03T15:00:00+01:00",
                    "'9:30 a.m.'|2026-12-03T09:30:00+01:00",
                    "'12am'|2026-12-03T00:00:00+01:00",
                    "'12pm'|2026-12-03T12:00:00+01:00",
                    "'15:00'|2026-12-03T15:00:00+01:00",
                    "'15:00:30'|2026-12-03T15:00:30+01:00",
                    "'7'|2026-12-03T07:00:00+01:00",
                    "15|2026-12-03T15:00:00+01:00",
                    "'noon'|2026-12-03T12:00:00+01:00",
                    "'midnight'|2026-12-03T00:00:00+01:00",
                    "'evening'|2026-12-03T18:00:00+01:00",
                    "morning|2026-12-03T09:00:00+01:00"
                })
        void sets_the_time_of_day_of_a_date(String time, String expected) {
            assertThat(eval("next(Thursday).at(" + time + ")", THURSDAY_NOON)).isEqualTo(expected);
        }

        @Test
        void a_wrong_time_is_refused_with_how_to_write_one() {
            assertThatThrownBy(() -> eval("next(Thursday).at('3:00xm')", THURSDAY_NOON))
                    .isInstanceOf(EvaluationException.class)
                    .hasMessage(
                            "${next('Thursday').at('3:00xm')}: '3:00xm' is not a time of day: write 3:00pm, 15:00 or 15:00:30");
            assertThatThrownBy(() -> eval("today.at('13pm')", THURSDAY_NOON))
                    .hasMessageContaining("'13pm' is not a time of day");
            assertThatThrownBy(() -> eval("today.at('24:00')", THURSDAY_NOON))
                    .hasMessageContaining("'24:00' is not a time of day");
            assertThatThrownBy(() -> eval("today.at(24)", THURSDAY_NOON))
                    .hasMessage("${today.at(24)}: at() takes a whole hour from 0 to 23 as a number, not 24");
        }

        @Test
        void parts_of_the_day_are_members_of_a_date_or_date_time() {
            assertThat(eval("tomorrow.morning", THURSDAY_NOON)).isEqualTo("2026-11-27T09:00:00+01:00");
            assertThat(eval("last(Friday).plus(23, days).closeofbusiness", THURSDAY_NOON))
                    .isEqualTo("2026-12-13T17:00:00+01:00");
            assertThat(eval("now.endofday", THURSDAY_NOON)).isEqualTo("2026-11-26T23:59:59+01:00");
        }

        @Test
        void a_local_date_time_stays_local_and_a_foreign_offset_stays_its_own() {
            assertThat(eval("'2023-10-15T17:05'.at('9am')", THURSDAY_NOON)).isEqualTo("2023-10-15T09:00:00");
            assertThat(eval("'2026-11-26T20:00:00-05:00'.at('9am')", THURSDAY_NOON))
                    .isEqualTo("2026-11-26T09:00:00-05:00");
        }

        @Test
        void methods_need_a_date_or_date_time() {
            assertThatThrownBy(() -> eval("'next week'.at('9am')", THURSDAY_NOON))
                    .hasMessage(
                            "${'next week'.at('9am')}: at() needs a date or a date-time (ISO-8601 text such as 2026-11-26"
                                    + " or 2026-11-26T09:00:00+01:00), got text 'next week'");
            assertThatThrownBy(() -> eval("x.plus(1, day)", THURSDAY_NOON, "{\"x\": 5}"))
                    .hasMessageContaining("plus() needs a date or a date-time");
        }
    }

    @Nested
    class Plus_and_minus {

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '"',
                value = {
                    "today.plus(2, days)|2026-11-28",
                    "today.minus(1, week)|2026-11-19",
                    "today.plus(3, hours)|2026-11-26T03:00:00+01:00",
                    "now.plus(90, minutes)|2026-11-26T13:30:00+01:00",
                    "now.minus(1, year)|2025-11-26T12:00:00+01:00",
                    "'2023-10-15T17:05'.minus(1, hour)|2023-10-15T16:05:00",
                    "'2026-11-26T09:00:00-05:00'.plus(1, day)|2026-11-27T09:00:00-05:00",
                    "'2026-11-26T09:00:00Z'.plus(1, day)|2026-11-27T09:00:00Z"
                })
        void move_in_the_values_form(String expression, String expected) {
            assertThat(eval(expression, THURSDAY_NOON)).isEqualTo(expected);
        }

        @ParameterizedTest(name = "{0} is {1}")
        @CsvSource(
                delimiter = '|',
                quoteCharacter = '"',
                value = {
                    "'2026-01-31'.plus(1, month)|2026-02-28",
                    "'2028-01-31'.plus(1, month)|2028-02-29",
                    "'2026-03-31'.minus(1, month)|2026-02-28",
                    "'2026-05-31'.plus(1, month)|2026-06-30",
                    "'2028-02-29'.plus(1, year)|2029-02-28",
                    "'2028-02-29'.minus(4, years)|2024-02-29",
                    "'2026-12-31'.plus(1, day)|2027-01-01",
                    "'2026-01-31T10:00:00+01:00'.plus(1, month)|2026-02-28T10:00:00+01:00"
                })
        void end_a_month_that_has_no_such_day_on_its_last_day(String expression, String expected) {
            assertThat(eval(expression, THURSDAY_NOON)).isEqualTo(expected);
        }

        @Test
        void refuse_bad_counts_units_and_years_past_9999() {
            assertThatThrownBy(() -> eval("today.plus(2000000, days)", THURSDAY_NOON))
                    .hasMessage(
                            "${today.plus(2000000, 'days')}: plus() moves at most 1,000,000 units at a time, not 2000000");
            assertThatThrownBy(() -> eval("today.plus(1.5, days)", THURSDAY_NOON))
                    .hasMessageContaining("plus() takes a whole number of units first, not the number 1.5");
            assertThatThrownBy(() -> eval("today.minus('2', days)", THURSDAY_NOON))
                    .hasMessageContaining("minus() takes a whole number of units first, not text '2'");
            assertThatThrownBy(() -> eval("today.plus(1, 'fortnight')", THURSDAY_NOON))
                    .hasMessage(
                            "${today.plus(1, 'fortnight')}: 'fortnight' is not a unit: write minute(s), hour(s), day(s),"
                                    + " week(s), month(s) or year(s)");
            assertThatThrownBy(() -> eval("today.plus(1000000, years)", THURSDAY_NOON))
                    .hasMessageContaining("the result would be outside the years 1 to 9999");
            assertThatThrownBy(() -> eval("'9999-12-31T23:00:00Z'.plus(1, hour)", THURSDAY_NOON))
                    .hasMessageContaining("outside the years 1 to 9999");
            assertThatThrownBy(() -> eval("'0001-01-01'.minus(1000000, minutes)", THURSDAY_NOON))
                    .hasMessageContaining("outside the years 1 to 9999");
        }

        @Test
        void a_bare_unit_is_the_word_and_a_parenthesised_one_the_variable() {
            assertThat(eval("today.plus(1, day)", THURSDAY_NOON, "{\"day\": \"month\"}"))
                    .isEqualTo("2026-11-27");
            assertThat(eval("today.plus(1, (day))", THURSDAY_NOON, "{\"day\": \"month\"}"))
                    .isEqualTo("2026-12-26");
        }
    }

    @Nested
    class Across_daylight_saving_changes {

        /** Saturday 2026-03-28, 12:00 in Oslo (UTC+1); the clocks go forward the next night. */
        private final RunClock beforeSpring = new RunClock(Instant.parse("2026-03-28T11:00:00Z"), OSLO);
        /** Saturday 2026-10-24, 12:00 in Oslo (UTC+2); the clocks go back the next night. */
        private final RunClock beforeAutumn = new RunClock(Instant.parse("2026-10-24T10:00:00Z"), OSLO);

        @Test
        void a_time_that_does_not_exist_moves_on_by_the_gap() {
            assertThat(eval("tomorrow.at('2:30am')", beforeSpring)).isEqualTo("2026-03-29T03:30:00+02:00");
            assertThat(eval("tomorrow.at('9:00')", beforeSpring)).isEqualTo("2026-03-29T09:00:00+02:00");
        }

        @Test
        void a_time_that_occurs_twice_is_the_earlier() {
            assertThat(eval("tomorrow.at('2:30am')", beforeAutumn)).isEqualTo("2026-10-25T02:30:00+02:00");
        }

        @Test
        void days_keep_the_time_of_day_and_hours_are_elapsed_time() {
            assertThat(eval("now.plus(1, day)", beforeSpring)).isEqualTo("2026-03-29T12:00:00+02:00");
            assertThat(eval("now.plus(24, hours)", beforeSpring)).isEqualTo("2026-03-29T13:00:00+02:00");
            assertThat(eval("now.plus(1, day)", beforeAutumn)).isEqualTo("2026-10-25T12:00:00+01:00");
            assertThat(eval("now.plus(24, hours)", beforeAutumn)).isEqualTo("2026-10-25T11:00:00+01:00");
            assertThat(eval("'2026-03-29T01:30:00+01:00'.plus(1, hour)", beforeSpring))
                    .isEqualTo("2026-03-29T03:30:00+02:00");
            assertThat(eval("'2026-10-25T02:30:00+02:00'.plus(1, hour)", beforeAutumn))
                    .isEqualTo("2026-10-25T02:30:00+01:00");
        }

        @Test
        void hours_from_a_date_count_from_its_start_of_day_in_the_zone() {
            assertThat(eval("tomorrow.plus(3, hours)", beforeSpring)).isEqualTo("2026-03-29T04:00:00+02:00");
        }

        @Test
        void new_york_changes_on_its_own_days() {
            RunClock saturday = new RunClock(Instant.parse("2026-03-07T17:00:00Z"), NEW_YORK); // 12:00 -05:00
            assertThat(eval("now", saturday)).isEqualTo("2026-03-07T12:00:00-05:00");
            assertThat(eval("tomorrow.at('2:30am')", saturday)).isEqualTo("2026-03-08T03:30:00-04:00");
            assertThat(eval("now.plus(1, week)", saturday)).isEqualTo("2026-03-14T12:00:00-04:00");
            RunClock autumn = new RunClock(Instant.parse("2026-10-31T16:00:00Z"), NEW_YORK); // 12:00 -04:00
            assertThat(eval("'2026-11-01T01:30:00-04:00'.plus(1, hour)", autumn))
                    .isEqualTo("2026-11-01T01:30:00-05:00");
            assertThat(eval("tomorrow.at('1:30am')", autumn)).isEqualTo("2026-11-01T01:30:00-04:00");
            assertThat(eval("next(Sunday).evening", autumn)).isEqualTo("2026-11-01T18:00:00-05:00");
        }
    }

    @Nested
    class Syntax {

        @Test
        void only_date_time_methods_exist() {
            assertThatThrownBy(() -> ExprParser.parse("x.foo(1)"))
                    .isInstanceOf(ExprSyntaxException.class)
                    .hasMessageContaining("there is no method 'foo' (values have no methods; the date/time helpers have"
                            + " at, endOf, minus, plus, startOf)");
            assertThatThrownBy(() -> ExprParser.parse("today.at()"))
                    .hasMessageContaining("at() takes 1 argument, got 0");
            assertThatThrownBy(() -> ExprParser.parse("next(Friday, 2)"))
                    .hasMessageContaining("next() takes 1 argument, got 2");
        }

        @Test
        void words_in_argument_positions_are_not_variables() {
            assertThat(Exprs.rootVariables(ExprParser.parse("next(Thursday).plus(2, days).at(time)")))
                    .containsExactly("time");
            assertThat(Exprs.rootVariables(ExprParser.parse("today.plus(n, day)")))
                    .containsExactly("today", "n");
        }

        @Test
        void methods_render_as_written() {
            assertThat(Exprs.render(ExprParser.parse("last(Friday).plus(23,days).at( '9:00am' )")))
                    .isEqualTo("last('Friday').plus(23, 'days').at('9:00am')");
        }
    }

    @Nested
    class The_clock {

        @Test
        void now_and_zone_read_the_command_line_forms() {
            assertThat(RunClock.instant("2026-11-26T09:00:00Z", OSLO)).isEqualTo(Instant.parse("2026-11-26T09:00:00Z"));
            assertThat(RunClock.instant("2026-11-26T09:00:00+01:00", OSLO))
                    .isEqualTo(Instant.parse("2026-11-26T08:00:00Z"));
            assertThat(RunClock.instant("2026-11-26T09:00", OSLO)).isEqualTo(Instant.parse("2026-11-26T08:00:00Z"));
            assertThat(RunClock.instant("2026-07-01", OSLO)).isEqualTo(Instant.parse("2026-06-30T22:00:00Z"));
            assertThatThrownBy(() -> RunClock.instant("next tuesday", OSLO))
                    .hasMessageStartingWith("'next tuesday' is not an instant");
            assertThat(RunClock.zone("+01:00").getId()).isEqualTo("+01:00");
            assertThatThrownBy(() -> RunClock.zone("Europe/Olso"))
                    .hasMessage("'Europe/Olso' is not a time zone: write a region"
                            + " such as Europe/Oslo or America/New_York, UTC, or an offset such as +01:00");
        }

        @Test
        void round_trips_through_json_and_reads_anything_else_as_none() {
            assertThat(RunClock.fromJson(THURSDAY_NOON.toJson())).contains(THURSDAY_NOON);
            assertThat(THURSDAY_NOON.toJson()).hasToString("{\"now\":\"2026-11-26T11:00:00Z\",\"tz\":\"Europe/Oslo\"}");
            assertThat(RunClock.fromJson(null)).isEmpty();
            assertThat(RunClock.fromJson(Fixtures.json("{\"now\": \"yesterday\", \"tz\": \"UTC\"}")))
                    .isEmpty();
            assertThat(RunClock.fromJson(Fixtures.json("{\"now\": \"2026-11-26T11:00:00Z\", \"tz\": \"Mars/Base\"}")))
                    .isEmpty();
        }

        @Test
        void refuses_years_past_9999() {
            assertThatThrownBy(() -> new RunClock(Instant.parse("+10000-01-01T00:00:00Z"), OSLO))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
