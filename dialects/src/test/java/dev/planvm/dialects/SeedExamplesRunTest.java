package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunResult;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every example of seeds 000 and 001 compiles, loads with today's loader and runs on today's VM
 * against its cassette ({@code X.cassette.json}, no tool installed) to its expected answer
 * ({@code X.answer.json}). The runs happen on a fixed clock, Thursday 2023-11-30 at 12:00 in
 * Los Angeles (UTC-8), so the date/time helpers compute the dates the cassettes and answers were
 * written for by hand: next Thursday is 2023-12-07, tomorrow 2023-12-01, last Friday 2023-11-24
 * (plus 23 days: 2023-12-17), last Tuesday 2023-11-28 (plus 23 days: 2023-12-21).
 */
class SeedExamplesRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Thursday 2023-11-30, 12:00 in Los Angeles. */
    static final Clock THURSDAY_NOON =
            Clock.fixed(Instant.parse("2023-11-30T20:00:00Z"), ZoneId.of("America/Los_Angeles"));

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "seed000/structure-with-result",
                "seed000/flights-single-domain-with-result",
                "seed000/rental-car-no-dates",
                "seed000/next-thursday-no-dates",
                "seed000/new-york-la-array-no-dates",
                "seed000/new-york-la-shorthand-no-dates",
                "seed000/new-york-la-explicit-no-dates",
                "seed000/each-airport-no-dates",
                "seed001/domain-a-hello",
                "seed001/fan-in",
                "seed001/flight-info",
                "seed001/map-flights",
                "seed001/map-flights-numbered"
            })
    void each_seed_example_runs_against_its_cassette_to_its_expected_answer(String example) throws IOException {
        RunResult result = run(example);
        assertThat(result.error()).as("run error").isNull();
        assertThat(result.finalAnswer()).isEqualTo(answer(example));
    }

    @Test
    void rental_car_with_return_departs_minus_one_hour_runs() throws IOException {
        assertThat(run("seed000/rental-car").finalAnswer()).isEqualTo(answer("seed000/rental-car"));
    }

    @Test
    void next_thursday_with_three_domains_runs() throws IOException {
        assertThat(run("seed000/next-thursday").finalAnswer()).isEqualTo(answer("seed000/next-thursday"));
    }

    @Test
    void new_york_to_la_tomorrow_as_an_array_runs() throws IOException {
        assertThat(run("seed000/new-york-la-fixed").finalAnswer()).isEqualTo(answer("seed000/new-york-la-fixed"));
    }

    @Test
    void new_york_to_la_tomorrow_as_an_object_shorthand_runs() throws IOException {
        assertThat(run("seed000/object-shorthand").finalAnswer()).isEqualTo(answer("seed000/object-shorthand"));
    }

    @Test
    void close_of_business_23_days_from_last_friday_runs() throws IOException {
        assertThat(run("seed000/close-of-business").finalAnswer()).isEqualTo(answer("seed000/close-of-business"));
    }

    @Test
    void next_thursday_at_9am_runs() throws IOException {
        assertThat(run("seed001/next-thursday").finalAnswer()).isEqualTo(answer("seed001/next-thursday"));
    }

    @Test
    void last_tuesday_plus_23_days_at_9am_runs() throws IOException {
        assertThat(run("seed001/last-tuesday").finalAnswer()).isEqualTo(answer("seed001/last-tuesday"));
    }

    /** Compiles, loads and runs an example, replaying its cassette when it has one. */
    static RunResult run(String example) {
        return run(example, false);
    }

    static RunResult run(String example, boolean replayTiming) {
        return run(example, replayTiming, PlanVm.builder().clock(THURSDAY_NOON).build());
    }

    static RunResult run(String example, boolean replayTiming, PlanVm vm) {
        Path source = source(example);
        Compiled compiled = Golden.compile(source);
        assertThat(compiled.errors()).as("compile errors").isEmpty();
        Plan plan = compiled.load(vm.loader(), source.getFileName().toString()).planOrThrow();
        Path cassette = Golden.EXAMPLES.resolve(example + ".cassette.json");
        RunMode options =
                cassette.toFile().exists() ? RunMode.replay(Cassette.read(cassette), replayTiming) : RunMode.live();
        return vm.run(plan, Map.of(), options);
    }

    static Path source(String example) {
        Path yaml = Golden.EXAMPLES.resolve(example + ".yaml");
        return yaml.toFile().exists() ? yaml : Golden.EXAMPLES.resolve(example + ".js");
    }

    static JsonNode answer(String example) throws IOException {
        return JSON.readTree(Golden.EXAMPLES.resolve(example + ".answer.json").toFile());
    }
}
