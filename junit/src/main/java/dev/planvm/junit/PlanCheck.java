package dev.planvm.junit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.PlanDirectory;
import dev.planvm.dialects.PlanSources;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.Expectation;
import dev.planvm.vm.batch.ExpectationException;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.batch.RegressionResult;
import dev.planvm.vm.batch.RegressionRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * {@code planvm test} for one plan, as a JUnit test: {@link RegressionRun} (the code {@code planvm test}
 * runs) decides, and its verdict becomes a passing test, an aborted one (no expectation) or an
 * {@link AssertionFailedError} whose message is {@code planvm test}'s and whose expected and actual
 * values are the expectation and what the plan did, as two expectation documents.
 */
final class PlanCheck {

    private final RegressionRun regression;

    PlanCheck(PlanVm vm, Map<String, JsonNode> inputs) {
        this(vm, inputs, RegressionRun.DEFAULT_TIME_LIMIT);
    }

    PlanCheck(PlanVm vm, Map<String, JsonNode> inputs, Duration planTimeout) {
        this.regression = new RegressionRun(runner(vm), inputs).withTimeLimit(planTimeout);
    }

    /** Runs plan files of every dialect on {@code vm}, as {@code planvm test} does. */
    static PlanFileRunner runner(PlanVm vm) {
        return new PlanFileRunner(
                vm,
                (file, inputs) ->
                        PlanSources.of(vm.loader()).withInputs(inputs.keySet()).load(file));
    }

    /**
     * The plan files of {@code dir} as {@code planvm test} lists them (agent tests included).
     *
     * @throws AssertionFailedError when the directory does not exist, holds no plan, or none of its plans
     *     has an expectation (where {@code planvm test} exits 2)
     */
    static List<Path> plans(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new AssertionFailedError(dir + ": no such directory (relative to the working directory "
                    + Path.of("").toAbsolutePath() + ")");
        }
        List<Path> plans = PlanDirectory.plans(dir, true);
        if (plans.isEmpty()) {
            throw new AssertionFailedError("no plan file in " + dir);
        }
        if (plans.stream()
                .noneMatch(plan -> PlanDirectory.isAsk(plan) || Files.exists(PlanFileRunner.expectationFor(plan)))) {
            throw new AssertionFailedError("no plan in " + dir + " has an expectation (X.expected.json beside X.json);"
                    + " write them with planvm test --update " + dir);
        }
        return plans;
    }

    /**
     * Runs {@code plan} and compares it with its expectation.
     *
     * @throws AssertionFailedError when it does not meet it, or the expectation is unusable
     * @throws TestAbortedException when it has no expectation, or is an agent test
     */
    void check(Path plan) {
        if (PlanDirectory.isAsk(plan)) {
            throw new TestAbortedException(
                    plan + " is an agent test (planvm-ask/1): planvm test runs it, with the agent module");
        }
        PlanOutcome[] ran = new PlanOutcome[1];
        RegressionResult result = regression.test(plan, outcome -> ran[0] = outcome);
        switch (result.verdict()) {
            case PASSED -> {}
            case SKIPPED -> throw new TestAbortedException(String.join("\n", result.lines()));
            case FAILED -> throw failure(plan, PlanFileRunner.expectationFor(plan), result.details(), ran[0]);
        }
    }

    /**
     * The failure of {@code plan} against {@code expectation}: the message lists the differences as
     * {@code planvm test} prints them; with {@code outcome} (the plan ran), the expected and actual
     * values are the expectation document and the one the outcome meets, pretty-printed.
     */
    static AssertionFailedError failure(Path plan, Path expectation, List<String> differences, PlanOutcome outcome) {
        List<String> lines = new ArrayList<>();
        lines.add("FAIL " + plan);
        differences.forEach(difference -> lines.add("  " + difference));
        String message = String.join("\n", lines);
        if (outcome == null) {
            return new AssertionFailedError(message);
        }
        Expectation expected;
        try {
            expected = Expectation.read(expectation);
        } catch (ExpectationException unusable) {
            return new AssertionFailedError(message);
        }
        return new AssertionFailedError(
                message,
                expected.toJson().toPrettyString(),
                actual(expected, outcome).toJson().toPrettyString());
    }

    /**
     * What {@code outcome} did, as an expectation that lines up with {@code expected}: its error is left
     * out when the status matches and none was expected, and shown as the expected text when it
     * contains it, so that a side-by-side view shows only real differences.
     */
    private static Expectation actual(Expectation expected, PlanOutcome outcome) {
        Expectation snapshot = Expectation.snapshot(outcome);
        String error = snapshot.error();
        if (error != null && expected.error() != null && error.contains(expected.error())) {
            error = expected.error();
        } else if (error != null && expected.error() == null && expected.status() == snapshot.status()) {
            error = null;
        }
        return new Expectation(snapshot.finalAnswer(), snapshot.status(), error);
    }

    /** The differences {@code expectation} finds in {@code outcome} (empty: it meets it). */
    static List<String> compare(Path expectation, PlanOutcome outcome) {
        try {
            return Expectation.read(expectation).compare(outcome);
        } catch (ExpectationException e) {
            return List.of("expectation " + e.getMessage());
        }
    }
}
