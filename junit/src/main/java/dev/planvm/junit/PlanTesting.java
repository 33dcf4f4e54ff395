package dev.planvm.junit;

import dev.planvm.vm.PlanVm;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

/**
 * {@code planvm test} from Java, for a VM of your own (tools, secrets, limits): one dynamic test per
 * plan of a directory from a {@code @TestFactory}, or one plan checked in any test. The same check as
 * {@link PlanTests}.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> plans() {
 *     return PlanTesting.dynamicTests(vm, Path.of("src/test/plans"));
 * }
 * }</pre>
 */
public final class PlanTesting {

    private PlanTesting() {}

    /**
     * One dynamic test per plan of {@code dir}, run on a VM with no tool installed (closed with the
     * stream, which JUnit closes after the tests).
     */
    public static Stream<DynamicTest> dynamicTests(Path dir) {
        PlanVm vm = PlanVm.builder().build();
        return dynamicTests(vm, dir).onClose(vm::close);
    }

    /**
     * One dynamic test per plan of {@code dir}, run on {@code vm}: each replays its cassette and is
     * compared with its expectation; one failing test names the problem when the directory does not
     * exist, holds no plan or none with an expectation.
     */
    public static Stream<DynamicTest> dynamicTests(PlanVm vm, Path dir) {
        List<Path> plans;
        try {
            plans = PlanCheck.plans(dir);
        } catch (AssertionFailedError problem) {
            return Stream.of(DynamicTest.dynamicTest(dir.toString(), () -> {
                throw problem;
            }));
        }
        PlanCheck check = new PlanCheck(vm, Map.of());
        return plans.stream()
                .map(plan ->
                        DynamicTest.dynamicTest(plan.getFileName().toString(), plan.toUri(), () -> check.check(plan)));
    }

    /**
     * Runs {@code plan} on {@code vm} (replaying {@code X.cassette.json} beside it when there is one) and
     * compares it with {@code X.expected.json}.
     *
     * @throws AssertionFailedError when it does not meet it (the message lists the differences)
     * @throws org.opentest4j.TestAbortedException when it has no expectation
     */
    public static void assertMeetsExpectation(PlanVm vm, Path plan) {
        new PlanCheck(vm, Map.of()).check(plan);
    }

    /** {@link #assertMeetsExpectation(PlanVm, Path)} on a VM with no tool installed. */
    public static void assertMeetsExpectation(Path plan) {
        try (PlanVm vm = PlanVm.builder().build()) {
            assertMeetsExpectation(vm, plan);
        }
    }
}
