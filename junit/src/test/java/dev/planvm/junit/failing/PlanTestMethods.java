package dev.planvm.junit.failing;

import static dev.planvm.junit.PlanAssertions.assertThat;

import dev.planvm.junit.PlanTest;
import dev.planvm.vm.run.RunResult;
import java.util.ArrayList;
import java.util.List;

/** @PlanTest methods that fail, each for one reason; {@link #bodies} records which bodies ran. */
public class PlanTestMethods {

    public static final List<String> bodies = new ArrayList<>();

    @PlanTest(plan = "src/test/plans/mixed/wrong.json")
    void does_not_meet_its_expectation() {
        bodies.add("does_not_meet_its_expectation");
    }

    @PlanTest(plan = "src/test/plans/mixed/unpinned.yaml")
    void checks_nothing() {
        bodies.add("checks_nothing");
    }

    @PlanTest(plan = "src/test/plans/mixed/pass.json", expected = "src/test/plans/mixed/missing.expected.json")
    void names_a_missing_expectation() {
        bodies.add("names_a_missing_expectation");
    }

    @PlanTest(plan = "src/test/plans/mixed/unpinned.yaml")
    void fails_its_own_check(RunResult run) {
        bodies.add("fails_its_own_check");
        assertThat(run).finalAnswer("3");
    }
}
