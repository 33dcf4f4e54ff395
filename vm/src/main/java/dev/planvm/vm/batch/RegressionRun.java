package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.RunMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Regression tests over stored plans: each plan {@code X.json} runs (replaying
 * {@code X.cassette.json} beside it when there is one, else live with whatever tools the VM has)
 * and is compared with {@code X.expected.json} ({@link Expectation}). Plans without an
 * expectation are skipped. {@link #update} writes expectations from the current behaviour instead.
 * Plans run one after the other; a run is as thread-safe as its {@link PlanFileRunner}.
 */
public final class RegressionRun {

    private final PlanFileRunner runner;
    private final Map<String, JsonNode> inputs;
    private final Set<String> live;

    /**
     * @param runner runs each plan file
     * @param inputs variables set before the first instruction of every plan
     */
    public RegressionRun(PlanFileRunner runner, Map<String, JsonNode> inputs) {
        this(runner, inputs, Set.of());
    }

    /** @param live tools called for real while the rest of each plan's calls are replayed from its cassette */
    public RegressionRun(PlanFileRunner runner, Map<String, JsonNode> inputs, Set<String> live) {
        this.live = Set.copyOf(live);
        this.runner = runner;
        this.inputs = Map.copyOf(inputs);
    }

    /** Tests every plan, in order. */
    public RegressionReport testAll(List<Path> plans) {
        return new RegressionReport(plans.stream().map(this::test).toList());
    }

    /** Runs one plan and compares it with its expectation; skipped when it has none. */
    public RegressionResult test(Path plan) {
        return test(plan, outcome -> {});
    }

    /** {@link #test(Path)}, telling {@code ran} how the plan ran (with its trace) when it ran. */
    public RegressionResult test(Path plan, java.util.function.Consumer<PlanOutcome> ran) {
        Path file = PlanFileRunner.expectationFor(plan);
        if (!Files.exists(file)) {
            return RegressionResult.skipped(plan, "no " + file.getFileName());
        }
        Expectation expectation;
        try {
            expectation = Expectation.read(file);
        } catch (ExpectationException e) {
            return RegressionResult.failed(plan, List.of("expectation " + e.getMessage()), 0);
        }
        PlanOutcome outcome = run(plan);
        ran.accept(outcome);
        List<String> differences = expectation.compare(outcome);
        return differences.isEmpty()
                ? RegressionResult.passed(plan, outcome.durationMs())
                : RegressionResult.failed(plan, differences, outcome.durationMs());
    }

    /**
     * Runs one plan and makes its expectation the snapshot of what it did
     * ({@link Expectation#snapshot}), unless the existing expectation is still met: then the file
     * is left as it is (hand-written {@code error} substrings and formatting survive).
     *
     * @throws IOException when the expectation cannot be written
     */
    public RegressionUpdate update(Path plan) throws IOException {
        PlanOutcome outcome = run(plan);
        Path file = PlanFileRunner.expectationFor(plan);
        boolean existed = Files.exists(file);
        if (existed && stillMet(file, outcome)) {
            return new RegressionUpdate(plan, file, RegressionUpdate.Change.UNCHANGED);
        }
        Expectation.snapshot(outcome).write(file);
        return new RegressionUpdate(
                plan, file, existed ? RegressionUpdate.Change.UPDATED : RegressionUpdate.Change.CREATED);
    }

    /**
     * Runs one plan, replaying the cassette beside it when there is one. The outcome's
     * {@code final_answer} has the VM's secrets redacted: expectations are compared with, and
     * written from, {@code «secret:NAME»} placeholders, never the secrets.
     */
    public PlanOutcome run(Path plan) {
        Path cassette = cassetteBeside(plan);
        return runner.redacted(
                Files.exists(cassette)
                        ? runner.replay(plan, cassette, false, live, inputs)
                        : runner.run(plan, RunMode.live(), inputs));
    }

    /** {@code X.cassette.json} beside {@code X.json}. */
    static Path cassetteBeside(Path plan) {
        return plan.resolveSibling(PlanFileRunner.baseName(plan) + ".cassette.json");
    }

    private static boolean stillMet(Path file, PlanOutcome outcome) {
        try {
            return Expectation.read(file).matches(outcome);
        } catch (ExpectationException unusable) {
            return false;
        }
    }
}
