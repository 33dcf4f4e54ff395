package dev.planvm.cli;

import dev.planvm.json.TerminalText;
import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.JUnitXmlReport;
import dev.planvm.vm.batch.PlanFileRunner;
import dev.planvm.vm.batch.RegressionReport;
import dev.planvm.vm.batch.RegressionResult;
import dev.planvm.vm.batch.RegressionRun;
import dev.planvm.vm.batch.RegressionUpdate;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm test PATH...}: runs every plan that has an {@code X.expected.json} beside it
 * (replaying {@code X.cassette.json} when there is one) and compares; {@code --update} writes the
 * expectations instead. The work is done by {@link RegressionRun}.
 */
@Command(name = "test", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Regression-test plans against their expectations (X.expected.json).",
                "Each plan X.json with X.expected.json beside it runs, replaying X.cassette.json",
                "when there is one, and its status and final_answer are compared. Prints PASS,",
                "FAIL (with the differences) or SKIP per plan, then 'N passed, M failed'."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every plan met its expectation (plans without one are skipped); --update done",
                "1:some plan failed, or a file could not be written",
                "2:bad usage, no plan found, or no plan has an expectation"})
final class TestCommand implements Callable<Integer> {

    @CommandLine.Parameters(arity = "1..*", paramLabel = "PATH",
            description = "Plan files (JSON), or directories of them (their *.json files but *.cassette.json and *.expected.json).")
    private List<String> paths;

    @CommandLine.Option(names = "--update",
            description = "Write each plan's X.expected.json from what it does now (snapshot); expectations still met are left as they are.")
    private boolean update;

    @CommandLine.Option(names = "--junit-xml", paramLabel = "FILE", description = "Also write a JUnit XML report to FILE.")
    private Path junitXml;

    @CommandLine.Mixin
    private RunSettings settings;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        PrintWriter out = commandLine.getOut();
        PrintWriter err = commandLine.getErr();
        if (update && junitXml != null) {
            throw new CommandLine.ParameterException(commandLine, "--junit-xml reports a test run; it does not go with --update");
        }
        Map<String, JsonNode> inputs = settings.inputs(commandLine);
        List<Path> plans = plans(commandLine);
        PlanVm vm = settings.applyTo(Toolbox.fromEnvironment(parent.environment()).vmBuilder()).build();
        RegressionRun regression = new RegressionRun(new PlanFileRunner(vm), inputs);
        return update ? update(regression, plans, out, err) : test(regression, plans, out, err);
    }

    private int test(RegressionRun regression, List<Path> plans, PrintWriter out, PrintWriter err) throws IOException {
        List<RegressionResult> results = new ArrayList<>();
        for (Path plan : plans) {
            RegressionResult result = regression.test(plan);
            result.lines().forEach(line -> out.println(TerminalText.safe(line)));
            out.flush();
            results.add(result);
        }
        RegressionReport report = new RegressionReport(results);
        out.println(report.summary());
        if (junitXml != null) {
            JUnitXmlReport.write(junitXml, report);
        }
        if (report.skipped() == results.size()) {
            err.println("planvm test: no plan has an expectation (X.expected.json beside X.json); write them with --update");
            return ExitCodes.INVALID;
        }
        return report.allPassed() ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
    }

    private static int update(RegressionRun regression, List<Path> plans, PrintWriter out, PrintWriter err) {
        Map<RegressionUpdate.Change, Integer> counts = new EnumMap<>(RegressionUpdate.Change.class);
        for (Path plan : plans) {
            try {
                RegressionUpdate change = regression.update(plan);
                out.println(TerminalText.safe(change.line()));
                counts.merge(change.change(), 1, Integer::sum);
            } catch (IOException e) {
                err.println(TerminalText.safe("planvm test: " + plan + ": cannot write its expectation: " + e.getMessage()));
                return ExitCodes.RUNTIME_FAILURE;
            }
        }
        out.println(counts.getOrDefault(RegressionUpdate.Change.UPDATED, 0) + " updated, "
                + counts.getOrDefault(RegressionUpdate.Change.CREATED, 0) + " created, "
                + counts.getOrDefault(RegressionUpdate.Change.UNCHANGED, 0) + " unchanged");
        return ExitCodes.OK;
    }

    /** The plan files the PATHs stand for, each once; a usage error when a PATH is missing or none is found. */
    private List<Path> plans(CommandLine commandLine) {
        for (String path : paths) {
            if (path.equals("-") || !Files.exists(Path.of(path))) {
                throw new CommandLine.ParameterException(commandLine, path + ": "
                        + (path.equals("-") ? "planvm test reads plan files, not standard input" : "no such file or directory"));
            }
        }
        Set<Path> plans = new LinkedHashSet<>();
        PlanFiles.expand(paths).forEach(file -> plans.add(Path.of(file).normalize()));
        if (plans.isEmpty()) {
            throw new CommandLine.ParameterException(commandLine, "no plan files in " + String.join(", ", paths));
        }
        return List.copyOf(plans);
    }
}
