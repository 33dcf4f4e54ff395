package com.example;

import static dev.planvm.junit.PlanAssertions.assertThat;

import dev.planvm.junit.PlanTest;
import dev.planvm.vm.run.RunResult;

/** One plan, checked by hand beyond its expectation. */
class PackingListTest {

    @PlanTest(plan = "plans/packing-list.json", cassette = "plans/packing-list.cassette.json")
    void a_cold_forecast_means_a_winter_coat(RunResult run) {
        assertThat(run)
                .succeeded()
                .wrote("forecast", "{\"temp_c\": -3, \"sky\": \"snow\"}")
                .wrote("coat", "\"winter coat\"");
    }
}
