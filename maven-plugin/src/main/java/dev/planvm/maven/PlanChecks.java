package dev.planvm.maven;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.dialects.PlanDirectory;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.RegressionReport;
import dev.planvm.vm.batch.RegressionResult;
import dev.planvm.vm.batch.RegressionRun;
import dev.planvm.vm.batch.TestSetup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the goals do, apart from Maven: {@link #validate} loads every plan of a directory as
 * {@code planvm validate DIR} does, {@link #test} replays and compares them as {@code planvm test DIR}
 * does (with {@link RegressionRun}, the same code). Each reports its lines to a {@link Report} (the build log)
 * and returns whether everything was right; the lines are the CLI's, errors at error level.
 */
final class PlanChecks {

    private final Path dir;
    private final Report log;

    /** Where the lines of a report go, each at its level: the build log shows errors at {@code [ERROR]}. */
    interface Report {
        void info(String line);

        default void warn(String line) {
            info(line);
        }

        default void error(String line) {
            info(line);
        }
    }

    /**
     * @param dir the directory of plans
     * @param log where each line of the report goes: errors and failing plans at error level, warnings at warn
     */
    public PlanChecks(Path dir, Report log) {
        this.dir = dir;
        this.log = log;
    }

    /** Why the directory cannot be checked, or {@code null}: missing, or holding no plan file. */
    public String problem() {
        if (!Files.isDirectory(dir)) {
            return "plansDirectory " + dir + " does not exist";
        }
        if (PlanDirectory.plans(dir, true).isEmpty()) {
            return "no plan file in " + dir;
        }
        return null;
    }

    /** The outcome of a check: the failing lines (each error, or each failing plan), and a summary. */
    public record Result(List<String> failures, String summary) {

        public Result {
            failures = List.copyOf(failures);
        }

        public boolean passed() {
            return failures.isEmpty();
        }
    }

    /**
     * Loads every plan of the directory (every dialect) with the schema and the static checks; every
     * error, located by file, {@code seq_no} and JSON pointer, is a failure.
     */
    public Result validate() {
        PlanSources sources = PlanSources.of(new PlanLoader());
        List<String> errors = new ArrayList<>();
        List<Path> plans = PlanDirectory.plans(dir, false);
        int invalid = 0;
        for (Path plan : plans) {
            LoadResult loaded = sources.load(plan);
            for (Diagnostic diagnostic : loaded.diagnostics()) {
                String line = diagnostic.format(plan.toString());
                if (diagnostic.isError()) {
                    log.error(line);
                    errors.add(line);
                } else {
                    log.warn(line);
                }
            }
            if (loaded.valid()) {
                log.info(plan + ": ok (" + loaded.plan().instructions().size() + " instructions)");
            } else {
                invalid++;
            }
        }
        return new Result(errors, (plans.size() - invalid) + " valid, " + invalid + " invalid");
    }

    /** {@link #test(TestSetup, Path)} with no configuration given and no variable. */
    public Result test() {
        return test(new TestSetup(null, List.of()), Path.of(""));
    }

    /**
     * Replays each plan that has an expectation with its cassette (on a VM with the tools of the setup's
     * configuration, and its variables) and compares; a plan that does not meet its expectation is a
     * failure, as is a directory where no plan has one. Agent tests ({@code planvm-ask/1}) are left to
     * {@code planvm test}.
     *
     * @param setup      {@code planvm test}'s {@code --config}, {@code --var} and {@code --plan-timeout} (a plan
     *                   still running then fails: the build never hangs)
     * @param workingDir what the configuration's path is relative to
     * @throws IllegalArgumentException when a variable is malformed
     * @throws dev.planvm.tools.config.ToolsConfigException when the configuration has a problem
     */
    public Result test(TestSetup setup, Path workingDir) {
        Map<String, JsonNode> variables = setup.inputs();
        List<Path> asks = PlanDirectory.plans(dir, true).stream()
                .filter(PlanDirectory::isAsk)
                .toList();
        List<RegressionResult> results = new ArrayList<>();
        try (PlanVm vm =
                setup.configure(PlanVm.builder(), workingDir, System.getenv()).build()) {
            RegressionRun regression = new RegressionRun(
                            new PlanFileRunner(
                                    vm,
                                    (file, inputs) -> PlanSources.of(vm.loader())
                                            .withInputs(inputs.keySet())
                                            .load(file)),
                            variables)
                    .withTimeLimit(setup.planTimeout());
            for (Path plan : PlanDirectory.plans(dir, false)) {
                RegressionResult result = regression.test(plan);
                boolean failed = result.verdict() == RegressionResult.Verdict.FAILED;
                result.lines().forEach(failed ? log::error : log::info);
                results.add(result);
            }
        }
        asks.forEach(ask -> log.info("SKIP " + ask + " (an agent test: planvm test runs it)"));
        RegressionReport report = new RegressionReport(results);
        List<String> failures = new ArrayList<>();
        for (RegressionResult result : results) {
            if (result.verdict() == RegressionResult.Verdict.FAILED) {
                failures.add(String.join("\n", result.lines()));
            }
        }
        if (report.skipped() == results.size()) {
            failures.add("no plan in " + dir + " has an expectation (X.expected.json beside X.json);"
                    + " write them with planvm test --update");
        }
        return new Result(failures, report.summary());
    }
}
