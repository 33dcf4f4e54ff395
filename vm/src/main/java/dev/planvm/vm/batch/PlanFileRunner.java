package dev.planvm.vm.batch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.CassetteException;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunOptions;
import dev.planvm.vm.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Loads, validates and runs one plan file and never throws for anything the plan or its cassette
 * does: every outcome is a {@link PlanOutcome}. Thread-safe (the {@link PlanVm} is).
 */
public final class PlanFileRunner {

    private final PlanVm vm;

    public PlanFileRunner(PlanVm vm) {
        this.vm = vm;
    }

    /** Where the cassette of plan {@code X.json} is: {@code dir/X.cassette.json}. */
    public static Path cassetteFor(Path plan, Path dir) {
        return dir.resolve(baseName(plan) + ".cassette.json");
    }

    /** Where the expectation of plan {@code X.json} is: {@code X.expected.json} beside it. */
    public static Path expectationFor(Path plan) {
        return plan.resolveSibling(baseName(plan) + ".expected.json");
    }

    /** {@code X} for {@code .../X.json}. */
    public static String baseName(Path plan) {
        String name = plan.getFileName().toString();
        return name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
    }

    /**
     * Runs {@code plan}; with a non-null {@code cassette} path, replays it (a missing cassette file
     * makes the outcome {@link PlanOutcome.Status#REJECTED}).
     *
     * @param options the run mode when no cassette is given (live or dry run)
     */
    public PlanOutcome run(Path plan, Path cassette, RunOptions options, Map<String, JsonNode> inputs) {
        long start = System.nanoTime();
        LoadResult loaded = vm.loader().load(plan);
        if (!loaded.valid()) {
            String errors = loaded.errors().stream().map(d -> d.format(plan.toString())).collect(Collectors.joining("; "));
            return outcome(plan, PlanOutcome.Status.INVALID, null, errors, start, 0, loaded.diagnostics(), null);
        }
        RunOptions effective = options;
        if (cassette != null) {
            if (!Files.exists(cassette)) {
                return outcome(plan, PlanOutcome.Status.REJECTED, null, cassette + ": cassette not found", start, 0,
                        loaded.diagnostics(), null);
            }
            try {
                effective = RunOptions.replay(Cassette.read(cassette), options.replayTiming());
            } catch (CassetteException e) {
                return outcome(plan, PlanOutcome.Status.REJECTED, null, e.getMessage(), start, 0, loaded.diagnostics(), null);
            }
        }
        try {
            RunResult result = vm.run(loaded.plan(), inputs, effective);
            return outcome(plan, result.succeeded() ? PlanOutcome.Status.SUCCEEDED : PlanOutcome.Status.FAILED,
                    result.finalAnswer(), result.succeeded() ? null : result.error().describe(), start, result.steps(),
                    loaded.diagnostics(), result.trace());
        } catch (PlanRejectedException e) {
            return outcome(plan, PlanOutcome.Status.REJECTED, null, String.join("; ", e.problems()), start, 0,
                    loaded.diagnostics(), null);
        }
    }

    private static PlanOutcome outcome(Path plan, PlanOutcome.Status status, JsonNode answer, String error, long start,
                                       int steps, List<Diagnostic> diagnostics, JsonNode trace) {
        return new PlanOutcome(plan, status, answer, error, (System.nanoTime() - start) / 1_000_000, steps, diagnostics, trace);
    }
}
