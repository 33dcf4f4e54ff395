package dev.planvm.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.planvm.dialects.PlanSources;
import dev.planvm.junit.failing.BadSetups;
import dev.planvm.junit.failing.ConfiguredPlans;
import dev.planvm.junit.failing.EmptyDirectory;
import dev.planvm.junit.failing.MissingDirectory;
import dev.planvm.junit.failing.MixedPlans;
import dev.planvm.junit.failing.UnconfiguredPlans;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.RegressionRun;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The planvm-plans engine runs a @PlanTests class as planvm test runs its directory. */
class PlanTestsEngineTest {

    private static final Path MIXED = Path.of("src/test/plans/mixed");

    private static EngineExecutionResults run(Class<?> type) {
        return EngineTestKit.engine(PlanTestEngine.ID)
                .selectors(selectClass(type))
                .execute();
    }

    private static Throwable thrown(Event event) {
        return event.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow();
    }

    @Test
    void each_plan_is_a_test_that_passes_fails_or_is_skipped_like_planvm_test() {
        EngineExecutionResults results = run(MixedPlans.class);

        results.testEvents()
                .assertStatistics(
                        stats -> stats.started(3).succeeded(1).failed(1).aborted(1));
        assertThat(results.testEvents().succeeded().list())
                .extracting(event -> event.getTestDescriptor().getDisplayName())
                .containsExactly("pass.json");
        Event aborted = results.testEvents().aborted().list().get(0);
        assertThat(aborted.getTestDescriptor().getDisplayName()).isEqualTo("unpinned.yaml");
        assertThat(thrown(aborted))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("SKIP")
                .hasMessageContaining("no unpinned.expected.json");
    }

    @Test
    void a_wrong_expectation_fails_with_the_json_diff_and_both_documents_for_the_ide() {
        Event failed = run(MixedPlans.class).testEvents().failed().list().get(0);

        assertThat(failed.getTestDescriptor().getDisplayName()).isEqualTo("wrong.json");
        AssertionFailedError error = (AssertionFailedError) thrown(failed);
        assertThat(error.getMessage())
                .isEqualTo("FAIL src/test/plans/mixed/wrong.json\n  /final_answer/items/1: expected 3, got 2");
        assertThat(error.isExpectedDefined() && error.isActualDefined()).isTrue();
        assertThat(error.getExpected().getStringRepresentation())
                .contains("3 ]")
                .contains("\"succeeded\"");
        assertThat(error.getActual().getStringRepresentation()).contains("2 ]").doesNotContain("\"error\"");
    }

    @Test
    void the_failure_is_word_for_word_what_planvm_test_prints() {
        Event failed = run(MixedPlans.class).testEvents().failed().list().get(0);
        Path plan = MIXED.resolve("wrong.json");
        try (PlanVm vm = PlanVm.builder().build()) {
            RegressionRun planvmTest = new RegressionRun(
                    new PlanFileRunner(
                            vm, (file, inputs) -> PlanSources.of(vm.loader()).load(file)),
                    Map.of());

            assertThat(thrown(failed).getMessage())
                    .isEqualTo(String.join("\n", planvmTest.test(plan).lines()));
        }
    }

    @Test
    void a_missing_directory_fails_the_class_with_where_it_was_looked_for() {
        EngineExecutionResults results = run(MissingDirectory.class);

        results.testEvents().assertStatistics(stats -> stats.started(0));
        List<Event> failed = results.containerEvents().failed().list();
        assertThat(failed).hasSize(1);
        assertThat(thrown(failed.get(0)).getMessage())
                .contains("@PlanTests(\"src/test/plans/missing\") on " + MissingDirectory.class.getName())
                .contains("no such directory")
                .contains(Path.of("").toAbsolutePath().toString());
    }

    @Test
    void a_directory_without_plans_fails_the_class() {
        List<Event> failed =
                run(EmptyDirectory.class).containerEvents().failed().list();

        assertThat(failed).hasSize(1);
        assertThat(thrown(failed.get(0)).getMessage()).contains("no plan file in src/test/plans/empty");
    }

    @Test
    void the_plans_get_the_configurations_tools_and_the_variables() {
        EngineExecutionResults results = run(ConfiguredPlans.class);

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    @Test
    void without_the_configuration_the_plan_tool_is_unknown_and_the_plan_fails() {
        Event failed = run(UnconfiguredPlans.class).testEvents().failed().list().get(0);

        assertThat(thrown(failed).getMessage()).contains("FAIL").contains("headline");
    }

    @Test
    void a_configuration_with_a_problem_fails_the_container_naming_the_annotation_and_the_problem() {
        List<Event> failed =
                run(BadSetups.MisspelledConfig.class).containerEvents().failed().list();

        assertThat(failed).hasSize(1);
        assertThat(thrown(failed.get(0)).getMessage())
                .contains("@PlanTests(\"src/test/plans/configured\")")
                .contains("planTool")
                .contains("planTools");
    }

    @Test
    void a_malformed_variable_fails_the_container_with_the_reading_of_planvm_test_var() {
        List<Event> failed = run(BadSetups.MalformedVariable.class)
                .containerEvents()
                .failed()
                .list();

        assertThat(failed).hasSize(1);
        assertThat(thrown(failed.get(0)).getMessage())
                .contains("vars: 2fast=yes: expected NAME=VALUE with NAME made of letters, digits and _");
    }

    @Test
    void one_plan_runs_alone_when_selected_by_its_unique_id() {
        UniqueId id = UniqueId.forEngine(PlanTestEngine.ID)
                .append("class", MixedPlans.class.getName())
                .append("plan", "pass.json");

        EngineExecutionResults results = EngineTestKit.engine(PlanTestEngine.ID)
                .selectors(selectUniqueId(id))
                .execute();

        results.testEvents().assertStatistics(stats -> stats.started(1).succeeded(1));
    }

    @Test
    void classes_without_the_annotation_are_left_to_other_engines() {
        run(PlanTestsEngineTest.class).allEvents().assertStatistics(stats -> stats.started(1)); // the engine
    }
}
