package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Jmp;
import dev.planvm.instructions.LoadResult;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one plan of a batch in the batch's mode: live, dry run, or replay from a directory of
 * cassettes. In replay mode a plan without a cassette runs only when it calls nothing (no
 * {@code calling}, no {@code condition_prompt}); one that does call something is
 * {@link PlanOutcome.Status#REJECTED} without running, so a replayed batch never calls anything
 * real, even when the tool is installed.
 */
final class BatchPlanRunner {

    private final PlanVm vm;
    private final PlanFileRunner runner;
    private final RunOptions options;
    private final Path replayDir;
    private final Map<String, JsonNode> inputs;

    /**
     * @param options   live or dry run; with a {@code replayDir}, carries {@code replayTiming}
     * @param replayDir where {@code X.cassette.json} is for each {@code X.json}, or {@code null}
     */
    BatchPlanRunner(PlanVm vm, RunOptions options, Path replayDir, Map<String, JsonNode> inputs) {
        this.vm = vm;
        this.runner = new PlanFileRunner(vm);
        this.options = options;
        this.replayDir = replayDir;
        this.inputs = Map.copyOf(inputs);
    }

    PlanOutcome run(Path plan) {
        if (replayDir == null) {
            return runner.run(plan, null, options, inputs);
        }
        Path cassette = PlanFileRunner.cassetteFor(plan, replayDir);
        if (Files.exists(cassette)) {
            return runner.run(plan, cassette, options, inputs);
        }
        return runWithoutCassette(plan, cassette);
    }

    private PlanOutcome runWithoutCassette(Path plan, Path cassette) {
        long start = System.nanoTime();
        LoadResult loaded = vm.loader().load(plan);
        List<String> calls = loaded.valid() ? callsOut(loaded.plan().instructions()) : List.of();
        if (calls.isEmpty()) {
            return runner.run(plan, null, RunOptions.LIVE, inputs);
        }
        String error = "no cassette " + cassette + ", and the plan calls out: " + String.join("; ", calls);
        return new PlanOutcome(plan, PlanOutcome.Status.REJECTED, null, error, (System.nanoTime() - start) / 1_000_000,
                0, loaded.diagnostics(), null);
    }

    /** What in the plan would reach the outside world, one phrase per instruction. */
    static List<String> callsOut(List<Instruction> instructions) {
        List<String> calls = new ArrayList<>();
        for (Instruction instruction : instructions) {
            if (instruction instanceof Calling calling) {
                calls.add("seq_no " + instruction.seqNo() + " calls tool '" + calling.tool() + "'");
            } else if (instruction instanceof Jmp jmp && jmp.branch() instanceof Jmp.LlmCondition) {
                calls.add("seq_no " + instruction.seqNo() + " has a condition_prompt");
            }
        }
        return calls;
    }
}
