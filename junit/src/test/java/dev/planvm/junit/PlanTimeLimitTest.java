package dev.planvm.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.planvm.junit.failing.SleepingPlanMethod;
import dev.planvm.junit.failing.SleepingPlans;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A plan that sleeps 30 days with no cassette fails its JUnit test when its time limit ({@code planTimeoutSeconds})
 * is up — even though its expectation says {@code failed} — and the other plans still run: the build never hangs.
 * The 60 s bound below only proves "not hung" (the limit is 1 s).
 */
class PlanTimeLimitTest {

    private static final Duration NOT_HUNG = Duration.ofSeconds(60);

    private static String message(Event event) {
        return event.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow()
                .getMessage();
    }

    @Test
    void a_plan_tests_class_fails_the_plan_still_sleeping_when_its_time_is_up_and_runs_the_others() {
        EngineExecutionResults results = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> EngineTestKit.engine(PlanTestEngine.ID)
                        .selectors(selectClass(SleepingPlans.class))
                        .execute());

        results.testEvents()
                .assertStatistics(stats -> stats.started(2).succeeded(1).failed(1));
        Event failed = results.testEvents().failed().list().get(0);
        assertThat(failed.getTestDescriptor().getDisplayName()).isEqualTo("sleeps.json");
        assertThat(message(failed))
                .isEqualTo("FAIL src/test/plans/sleeping/sleeps.json\n  src/test/plans/sleeping/sleeps.json: the plan"
                        + " did not finish within 1 s, the time limit of a plan test (planvm test --plan-timeout): it"
                        + " was at seq_no 0, calling sleep");
    }

    @Test
    void a_plan_test_method_fails_when_its_time_is_up_and_its_body_does_not_run() {
        SleepingPlanMethod.bodies.clear();
        EngineExecutionResults results = assertTimeoutPreemptively(
                NOT_HUNG,
                () -> EngineTestKit.engine("junit-jupiter")
                        .selectors(selectClass(SleepingPlanMethod.class))
                        .execute());

        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
        assertThat(message(results.testEvents().failed().list().get(0)))
                .contains("sleeps.json: the plan did not finish within 1 s")
                .contains("it was at seq_no 0, calling sleep");
        assertThat(SleepingPlanMethod.bodies).isEmpty();
    }
}
