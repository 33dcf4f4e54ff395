package dev.planvm.cli;

import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.PlanDirectory;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.TerminalText;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.PlanFileRunner;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Loads the plans commands are given, in every dialect, through the one loading path
 * ({@link PlanSources}): a file (its extension, or {@code --dialect}, picks the language) or
 * {@code -} for standard input (JSON unless {@code --dialect} says otherwise).
 */
final class PlanInput {

    private PlanInput() {}

    /**
     * Loads {@code file} with the VM's loader; errors (and, when verbose, warnings) go to {@code err}.
     *
     * @param dialect {@code --dialect}, or {@code null} for the file's extension
     * @param inputs  the variables the run is given, which a dialect plan may read
     */
    static LoadResult load(
            PlanVm vm, String file, Dialect dialect, Set<String> inputs, PrintWriter err, boolean verbose) {
        LoadResult loaded = load(sources(vm.loader(), inputs), file, dialect);
        for (Diagnostic diagnostic : loaded.diagnostics()) {
            if (diagnostic.isError() || verbose) {
                err.println(TerminalText.safe(diagnostic.format(file)));
            }
        }
        return loaded;
    }

    /** Loads {@code file} ({@code -}: standard input) from {@code sources}. */
    static LoadResult load(PlanSources sources, String file, Dialect dialect) {
        return file.equals("-") ? sources.load(System.in, "<stdin>", dialect) : sources.load(Path.of(file), dialect);
    }

    /** Every dialect, loaded by {@code loader}, with these inputs declared. */
    static PlanSources sources(PlanLoader loader, Set<String> inputs) {
        return PlanSources.of(loader).withInputs(inputs);
    }

    /** A plan file of a plan-tools directory: a plan of any dialect (not a cassette, expectation, trace or agent test). */
    static boolean isPlanToolFile(Path file) {
        return PlanDirectory.isPlanFile(file) && !PlanDirectory.isAsk(file);
    }

    /** Loads a plan tool's file, of any dialect. */
    static LoadResult loadPlanTool(Path file) {
        return PlanSources.of(new PlanLoader()).load(file, null);
    }

    /** Runs plan files of every dialect on {@code vm} ({@code batch}, {@code test}), each run's clock changed by {@code clock}. */
    static PlanFileRunner runner(PlanVm vm, UnaryOperator<RunClock> clock) {
        return new PlanFileRunner(
                        vm,
                        (file, inputs) -> sources(vm.loader(), inputs.keySet()).load(file))
                .withClock(clock);
    }
}
