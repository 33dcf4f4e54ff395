package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Date/time helpers written in the dialects run on planvm's expressions, on the fixed clock of
 * {@link SeedExamplesRunTest#THURSDAY_NOON} (Thursday 2023-11-30, 12:00 in Los Angeles, UTC-8).
 */
class DialectDatesTest {

    private final PlanVm vm =
            PlanVm.builder().clock(SeedExamplesRunTest.THURSDAY_NOON).build();

    private RunResult run(String source, String fileName) {
        Plan plan = PlanSources.of(vm.loader()).load(source, fileName, null).planOrThrow();
        return vm.run(plan, Map.of());
    }

    @Test
    void seed_001s_current_is_this_and_its_weekday_and_unit_constants_are_text() {
        RunResult result = run("""
                monday = current(week);
                unit = day;
                return {monday, soon: monday.plus(3, unit), friday: next(Friday).at('5pm'), name: Thursday};
                """, "dates.js");
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer())
                .hasToString("{\"monday\":\"2023-11-27\",\"soon\":\"2023-11-30\","
                        + "\"friday\":\"2023-12-01T17:00:00-08:00\",\"name\":\"Thursday\"}");
    }

    @Test
    void an_alias_named_like_a_weekday_is_the_alias_even_as_an_argument() {
        RunResult result = run("""
                Thursday = 'Saturday';
                return next(Thursday);
                """, "shadow.js");
        assertThat(result.finalAnswer().asText()).isEqualTo("2023-12-02");
    }

    @Test
    void yaml_writes_parts_of_the_day_as_members() {
        RunResult result =
                run("result: ${tomorrow.morning} until ${last(Friday).plus(23, days).closeofbusiness}\n", "cob.yaml");
        assertThat(result.finalAnswer().asText())
                .isEqualTo("2023-12-01T09:00:00-08:00 until 2023-12-17T17:00:00-08:00");
    }

    @Test
    void javascript_has_seed_001s_start_of_and_end_of() {
        RunResult result = run("""
                monday = today.startOf(week);
                return {monday, sunday: today.endOf(week), lastDay: next(month).endOf(month), tonight: now.endOf(day)};
                """, "periods.js");
        assertThat(result.error()).isNull();
        assertThat(result.finalAnswer())
                .hasToString("{\"monday\":\"2023-11-27\",\"sunday\":\"2023-12-03\",\"lastDay\":\"2023-12-31\","
                        + "\"tonight\":\"2023-11-30T23:59:59-08:00\"}");
    }

    @Test
    void yaml_has_start_of_and_end_of_in_its_references() {
        RunResult result = run("result: ${today.startOf(month)} to ${today.endOf(month).at('5pm')}\n", "month.yaml");
        assertThat(result.finalAnswer().asText()).isEqualTo("2023-11-01 to 2023-11-30T17:00:00-08:00");
    }

    @Test
    void a_runtime_error_names_the_line_it_was_written_on() {
        RunResult result = run("""
                # line 1
                start: ${today}
                result: ${start.at('3:00xm')}
                """, "bad-time.yaml");
        assertThat(result.error().describe())
                .isEqualTo("line 3 (seq_no 1, assign): ${start.at('3:00xm')}: '3:00xm' is not"
                        + " a time of day: write 3:00pm, 15:00 or 15:00:30");
        assertThat(result.trace().path("steps").get(0).path("line").asInt()).isEqualTo(2);
        assertThat(result.trace().path("error").path("line").asInt()).isEqualTo(3);
    }
}
