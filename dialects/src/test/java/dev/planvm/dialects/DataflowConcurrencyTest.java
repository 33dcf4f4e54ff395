package dev.planvm.dialects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.run.RunResult;
import org.junit.jupiter.api.Test;

/**
 * The compiled order lets the VM's dataflow scheduler run independent calls at once. The cassettes
 * record 500 ms (fan-in) and 400 ms (rental car) per lookup and are replayed with their timing, so
 * the overlap shows in the trace however loaded the machine is: run one after the other, the
 * second call would end a whole call's duration after the first; run at once, it ends with it.
 */
class DataflowConcurrencyTest {

    @Test
    void seed_001_runs_its_two_independent_domain_calls_at_once_and_the_third_after_both() {
        RunResult result = SeedExamplesRunTest.run("seed001/fan-in", true);
        assertThat(result.error()).isNull();
        JsonNode domainA = step(result, 0);
        JsonNode domainB = step(result, 1);
        JsonNode domainC = step(result, 2);
        assertThat(domainA.path("duration_ms").asDouble())
                .as("domainA replays its 500 ms")
                .isGreaterThanOrEqualTo(450);
        assertThat(end(domainB) - end(domainA)).as("domainB ran during domainA").isLessThan(250);
        assertThat(domainC.path("start_ms").asDouble())
                .as("domainC waited for both")
                .isGreaterThanOrEqualTo(end(domainB) - 1);
        assertThat(result.trace().at("/early_calls/used").asInt()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void on_a_sequential_vm_the_same_measure_shows_the_calls_one_after_the_other() {
        RunResult result = SeedExamplesRunTest.run(
                "seed001/fan-in", true, PlanVm.builder().sequential(true).build());
        assertThat(result.error()).isNull();
        assertThat(end(step(result, 1)) - end(step(result, 0))).isGreaterThanOrEqualTo(450);
    }

    @Test
    void the_yaml_rental_car_plan_looks_up_both_flights_at_once() {
        RunResult result = SeedExamplesRunTest.run("seed000/rental-car-no-dates", true);
        assertThat(result.error()).isNull();
        JsonNode outbound = step(result, 0);
        JsonNode inbound = step(result, 2);
        assertThat(outbound.path("duration_ms").asDouble()).isGreaterThanOrEqualTo(350);
        assertThat(end(inbound) - end(outbound))
                .as("the return flight was looked up during the outbound one")
                .isLessThan(200);
        assertThat(step(result, 4).path("start_ms").asDouble()).isGreaterThanOrEqualTo(end(inbound) - 1);
    }

    private static JsonNode step(RunResult result, int seqNo) {
        for (JsonNode step : result.trace().path("steps")) {
            if (step.path("seq_no").asInt() == seqNo) {
                return step;
            }
        }
        throw new AssertionError("no step " + seqNo + " in the trace: " + result.trace());
    }

    private static double end(JsonNode step) {
        return step.path("start_ms").asDouble() + step.path("duration_ms").asDouble();
    }
}
