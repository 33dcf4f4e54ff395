package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.LoadResult;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one plan of a batch in the batch's mode: live, dry run, or replay from a directory of
 * cassettes. In replay mode a plan without a cassette runs only when it calls nothing (no
 * {@code calling}, no {@code condition_prompt}); one that does call something is
 * {@link RunStatus#REJECTED} without running, so a replayed batch never calls anything
 * real, even when the tool is installed.
 */
final class BatchPlanRunner {

    private final PlanFileRunner runner;
    private final RunMode mode;
    private final Path replayDir;
    private final boolean replayTiming;
    private final Map<String, JsonNode> inputs;

    /**
     * @param mode         live or dry run, when not replaying
     * @param replayDir    where {@code X.cassette.json} is for each {@code X.json}, or {@code null}
     * @param replayTiming while replaying, wait each interaction's recorded duration
     */
    BatchPlanRunner(
            PlanFileRunner runner, RunMode mode, Path replayDir, boolean replayTiming, Map<String, JsonNode> inputs) {
        this.runner = runner;
        this.mode = mode;
        this.replayDir = replayDir;
        this.replayTiming = replayTiming;
        this.inputs = Map.copyOf(inputs);
    }

    PlanOutcome run(Path plan) {
        if (replayDir == null) {
            return runner.run(plan, mode, inputs);
        }
        Path cassette = PlanFileRunner.cassetteFor(plan, replayDir);
        if (Files.exists(cassette)) {
            return runner.replay(plan, cassette, replayTiming, inputs);
        }
        return runWithoutCassette(plan, cassette);
    }

    private PlanOutcome runWithoutCassette(Path plan, Path cassette) {
        long start = System.nanoTime();
        LoadResult loaded = runner.load(plan, inputs);
        Optional<String> refused =
                loaded.valid() ? PlanFileRunner.withoutCassette(loaded.plan(), cassette) : Optional.empty();
        if (refused.isEmpty()) {
            return runner.run(plan, RunMode.live(), inputs);
        }
        return new PlanOutcome(
                plan,
                RunStatus.REJECTED,
                null,
                refused.get(),
                (System.nanoTime() - start) / 1_000_000,
                0,
                loaded.diagnostics(),
                null);
    }
}
