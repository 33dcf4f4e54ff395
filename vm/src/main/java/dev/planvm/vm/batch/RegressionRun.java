package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.RunMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Regression tests over stored plans: each plan {@code X.json} runs (replaying
 * {@code X.cassette.json} beside it when there is one, else live with whatever tools the VM has)
 * and is compared with {@code X.expected.json} ({@link Expectation}). Plans without an
 * expectation are skipped. {@link #update} writes expectations from the current behaviour instead.
 * Plans run one after the other; a run is as thread-safe as its {@link PlanFileRunner}.
 *
 * <p>Each plan has a time limit ({@link #DEFAULT_TIME_LIMIT}, {@link #withTimeLimit}): a plan that has not
 * finished when it is up fails its test, saying where it was, and its run is stopped, so that a plan that
 * sleeps for days or calls a tool that never answers cannot hang a build.
 */
public final class RegressionRun {

    /** The default time limit of one plan test, in seconds: 120. */
    public static final long DEFAULT_TIME_LIMIT_SECONDS = 120;

    /**
     * The default time limit of one plan test: 120 s. A replayed plan takes milliseconds; a plan that calls live
     * tools and LLMs takes seconds to a minute; a plan that waits longer sleeps or hangs.
     */
    public static final Duration DEFAULT_TIME_LIMIT = Duration.ofSeconds(DEFAULT_TIME_LIMIT_SECONDS);

    /** A plan that did not finish within its test's time limit (its run was asked to stop). */
    public static final class TimedOut extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message) {
            super(message, null, false, false);
        }
    }

    private final PlanFileRunner runner;
    private final Map<String, JsonNode> inputs;
    private final Set<String> live;
    private final PlanTimeLimit limit;

    /**
     * @param runner runs each plan file
     * @param inputs variables set before the first instruction of every plan
     */
    public RegressionRun(PlanFileRunner runner, Map<String, JsonNode> inputs) {
        this(runner, inputs, Set.of());
    }

    /** @param live tools called for real while the rest of each plan's calls are replayed from its cassette */
    public RegressionRun(PlanFileRunner runner, Map<String, JsonNode> inputs, Set<String> live) {
        this(runner, inputs, live, new PlanTimeLimit(DEFAULT_TIME_LIMIT));
    }

    private RegressionRun(PlanFileRunner runner, Map<String, JsonNode> inputs, Set<String> live, PlanTimeLimit limit) {
        this.live = Set.copyOf(live);
        this.runner = runner;
        this.inputs = Map.copyOf(inputs);
        this.limit = limit;
    }

    /**
     * This regression run with {@code value} as each plan's time limit ({@code planvm test --plan-timeout}).
     *
     * @throws IllegalArgumentException when it is not positive
     */
    public RegressionRun withTimeLimit(Duration value) {
        return new RegressionRun(runner, inputs, live, new PlanTimeLimit(value));
    }

    /** Each plan's time limit. */
    public Duration timeLimit() {
        return limit.limit();
    }

    /** Tests every plan, in order. */
    public RegressionReport testAll(List<Path> plans) {
        return new RegressionReport(plans.stream().map(this::test).toList());
    }

    /** Runs one plan and compares it with its expectation; skipped when it has none, failed when out of time. */
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
        PlanOutcome outcome;
        try {
            outcome = run(plan);
        } catch (TimedOut late) {
            return RegressionResult.failed(
                    plan, List.of(late.getMessage()), limit.limit().toMillis());
        }
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
     * @throws TimedOut when the plan did not finish within its time limit (nothing is written)
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
     * Runs one plan, replaying the cassette beside it when there is one, within the time limit. The outcome's
     * {@code final_answer} has the VM's secrets redacted: expectations are compared with, and
     * written from, {@code «secret:NAME»} placeholders, never the secrets.
     *
     * @throws TimedOut when the plan did not finish within its time limit
     */
    public PlanOutcome run(Path plan) {
        Path cassette = cassetteBeside(plan);
        return Files.exists(cassette)
                ? replay(plan, cassette)
                : runWithin(plan, watched -> watched.run(plan, RunMode.live(), inputs));
    }

    /**
     * {@link #run(Path)} replaying {@code cassette} (a missing or unreadable one makes the outcome rejected).
     *
     * @throws TimedOut when the plan did not finish within its time limit
     */
    public PlanOutcome replay(Path plan, Path cassette) {
        return runWithin(plan, watched -> watched.replay(plan, cassette, false, live, inputs));
    }

    private PlanOutcome runWithin(Path plan, java.util.function.Function<PlanFileRunner, PlanOutcome> work) {
        return runner.redacted(limit.run(plan, runner, work));
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
