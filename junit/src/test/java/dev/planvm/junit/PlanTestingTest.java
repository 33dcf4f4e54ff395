package dev.planvm.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.planvm.junit.failing.MixedDynamicTests;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** planvm test from a @TestFactory, and for one plan. */
class PlanTestingTest {

    private static EngineExecutionResults jupiter(String method) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(MixedDynamicTests.class, method))
                .execute();
    }

    @TestFactory
    Stream<DynamicTest> the_stored_examples_as_dynamic_tests() {
        return PlanTesting.dynamicTests(Path.of("../plans"));
    }

    @Test
    void a_directory_gives_one_dynamic_test_per_plan_with_planvm_test_s_verdicts() {
        EngineExecutionResults results = jupiter("mixed");

        results.testEvents()
                .assertStatistics(
                        stats -> stats.started(3).succeeded(1).failed(1).aborted(1));
        Throwable failure = results.testEvents()
                .failed()
                .list()
                .get(0)
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow();
        assertThat(failure)
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("/final_answer/items/1: expected 3, got 2");
    }

    @Test
    void a_missing_directory_is_one_failing_test_that_says_so() {
        EngineExecutionResults results = jupiter("missing");

        results.testEvents().assertStatistics(stats -> stats.started(1).failed(1));
        assertThat(results.testEvents()
                        .failed()
                        .list()
                        .get(0)
                        .getRequiredPayload(TestExecutionResult.class)
                        .getThrowable()
                        .orElseThrow())
                .hasMessageContaining("src/test/plans/missing: no such directory");
    }

    @Test
    void one_plan_meets_its_expectation_or_fails_with_the_differences() {
        PlanTesting.assertMeetsExpectation(Path.of("src/test/plans/mixed/pass.json"));

        assertThatThrownBy(() -> PlanTesting.assertMeetsExpectation(Path.of("src/test/plans/mixed/wrong.json")))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessageContaining("/final_answer/items/1: expected 3, got 2");
        assertThatThrownBy(() -> PlanTesting.assertMeetsExpectation(Path.of("src/test/plans/mixed/unpinned.yaml")))
                .isInstanceOf(TestAbortedException.class);
    }
}
