package dev.planvm.junit;

import static dev.planvm.junit.PlanAssertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.planvm.junit.failing.PlanTestMethods;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** @PlanTest: one plan replayed, compared with its expectation, then handed to the method. */
class PlanTestExtensionTest {

    @PlanTest(plan = "../plans/spec-even-or-odd.json")
    void replays_the_cassette_beside_the_plan_and_meets_its_expectation(RunResult run) {
        assertThat(run).succeeded().wrote("parity", "\"even\"").finalAnswer("\"42 is even\"");
    }

    @PlanTest(
            plan = "../plans/spec-even-or-odd.json",
            cassette = "../plans/spec-even-or-odd.cassette.json",
            expected = "../plans/spec-even-or-odd.expected.json")
    void takes_a_cassette_and_an_expectation_named_explicitly(PlanOutcome outcome) {
        Assertions.assertThat(outcome.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @PlanTest(plan = "../plans/trip.yaml")
    void runs_plans_of_every_dialect() {}

    @PlanTest(
            plan = "src/test/plans/configured/greet.json",
            config = "src/test/plans/configured-setup/planvm.json",
            vars = {"topic=plans in junit", "round=2"})
    void gets_the_tools_of_its_configuration_and_its_variables(RunResult run) {
        assertThat(run).succeeded().wrote("line", "\"engineers: 3 words on plans in junit\"");
    }

    @Test
    void a_plan_test_fails_on_a_wrong_expectation_or_when_it_checks_nothing_and_the_body_runs_only_after_a_match() {
        PlanTestMethods.bodies.clear();
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(PlanTestMethods.class))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.started(4).failed(4));
        Map<String, String> messages = results.testEvents().failed().stream()
                .collect(Collectors.toMap(
                        event -> event.getTestDescriptor().getDisplayName(),
                        event -> event.getRequiredPayload(TestExecutionResult.class)
                                .getThrowable()
                                .orElseThrow()
                                .getMessage()));
        Assertions.assertThat(messages.get("does_not_meet_its_expectation()"))
                .isEqualTo("FAIL src/test/plans/mixed/wrong.json\n  /final_answer/items/1: expected 3, got 2");
        Assertions.assertThat(messages.get("checks_nothing()"))
                .contains("checks nothing")
                .contains("unpinned.expected.json")
                .contains("takes no RunResult");
        Assertions.assertThat(messages.get("names_a_missing_expectation()")).contains("no such file");
        Assertions.assertThat(messages.get("fails_its_own_check(RunResult)"))
                .contains("final_answer is not as expected")
                .contains("expected 3, got 2");
        Assertions.assertThat(PlanTestMethods.bodies).containsExactly("fails_its_own_check");
    }
}
