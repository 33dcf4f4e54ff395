package dev.planvm.cli;

import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.ImportedPlan;
import dev.planvm.dialects.PlanDirectory;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.TerminalText;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.PlanFileRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

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
        return PlanSources.of(new PlanLoader()).loadTool(file, null);
    }

    /**
     * The plan tools that the PPE scripts among {@code files} import ({@code import:} in their front
     * matter), and the custom functions the Idyll documents among them define, each once by name and file, for the VM that runs them; a script that does not compile
     * (or is not there any more) adds none (loading it reports why). The one place a script's imports
     * become a run's plan tools: {@code run}, {@code batch}, {@code test}, {@code resume},
     * {@code rerun}, {@code approve}, {@code answer} and the plan-tool directories of {@code serve} and
     * {@code mcp} all come here ({@link VmOptions}).
     *
     * @param dialect {@code --dialect}, or {@code null} for each file's extension
     */
    static List<Plan> importedPlanTools(Collection<String> files, Dialect dialect) {
        return importedPlanTools(files, dialect, List.of());
    }

    /**
     * {@link #importedPlanTools(Collection, Dialect)} but for the imports that are already plan tools of
     * {@code planToolDirs} (a script of such a directory, imported under its own name).
     */
    static List<Plan> importedPlanTools(Collection<String> files, Dialect dialect, Collection<Path> planToolDirs) {
        Map<String, Plan> tools = new LinkedHashMap<>();
        PlanSources sources = PlanSources.of(new PlanLoader());
        for (String file : files) {
            Dialect d = file.equals("-") ? null : PlanSources.dialectOf(file, dialect);
            if ((d != Dialect.PPE && d != Dialect.IDYLL) || !Files.isRegularFile(Path.of(file))) {
                continue;
            }
            for (ImportedPlan imported : sources.compile(Path.of(file), dialect).imports()) {
                String key = imported.name() + "\u0000" + imported.file();
                if (!tools.containsKey(key) && !offeredBy(planToolDirs, imported)) {
                    Plan plan = imported.load(new PlanLoader()).plan();
                    if (plan != null) {
                        tools.put(key, plan);
                    }
                }
            }
        }
        return List.copyOf(tools.values());
    }

    /**
     * The plan tools that the PPE scripts of plan-tool directories ({@code --plan-tools}, the
     * configuration's {@code planTools}) import, but for those the directories offer already.
     */
    static List<Plan> planToolDirImports(Collection<Path> planToolDirs) {
        List<String> scripts = new ArrayList<>();
        for (Path dir : planToolDirs) {
            if (!Files.isDirectory(dir)) {
                continue; // the VM's build says so
            }
            try (Stream<Path> listed = Files.list(dir)) {
                listed.filter(f -> Files.isRegularFile(f)
                                && isPlanToolFile(f)
                                && (Dialect.ofFile(f.getFileName().toString()) == Dialect.PPE
                                        || Dialect.ofFile(f.getFileName().toString()) == Dialect.IDYLL))
                        .sorted()
                        .forEach(f -> scripts.add(f.toString()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
            }
        }
        return importedPlanTools(scripts, null, planToolDirs);
    }

    /** Whether a plan-tool directory offers {@code imported} itself: its file, named as the import names it. */
    private static boolean offeredBy(Collection<Path> planToolDirs, ImportedPlan imported) {
        Path folder = imported.file().getParent();
        for (Path dir : planToolDirs) {
            try {
                if (folder != null
                        && Files.isDirectory(dir)
                        && dir.toRealPath().equals(folder)
                        && isPlanToolFile(imported.file())) {
                    Plan own = loadPlanTool(imported.file()).plan();
                    return own != null
                            && own.signature()
                                    .map(PlanSignature::name)
                                    .filter(imported.name()::equals)
                                    .isPresent();
                }
            } catch (IOException e) {
                // not offered: the directory cannot be read
            }
        }
        return false;
    }

    /** Runs plan files of every dialect on {@code vm} ({@code batch}, {@code test}), each run's clock changed by {@code clock}. */
    static PlanFileRunner runner(PlanVm vm, UnaryOperator<RunClock> clock) {
        return new PlanFileRunner(
                        vm,
                        (file, inputs) -> sources(vm.loader(), inputs.keySet()).load(file))
                .withClock(clock);
    }
}
