package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.batch.JUnitXmlReport;
import dev.planvm.vm.batch.PlanOutcome;
import dev.planvm.vm.batch.RegressionReport;
import dev.planvm.vm.batch.RegressionResult;
import dev.planvm.vm.batch.RegressionRun;
import dev.planvm.vm.batch.RegressionUpdate;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm test PATH...}: runs every plan that has an {@code X.expected.json} beside it
 * (replaying {@code X.cassette.json} when there is one) and compares; {@code --update} writes the
 * expectations instead. The work is done by {@link RegressionRun}.
 */
@Command(
        name = "test",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Regression-test plans against their expectations (X.expected.json).",
            "Each plan X.json (X.yaml, X.js) with X.expected.json beside it runs, replaying X.cassette.json when there is"
                    + " one (with the clock the cassette recorded, unless --now/--tz), and its status and final_answer are compared.",
            "An X.json holding {\"format\": \"planvm-ask/1\", \"goal\": ...} is an agent run (planvm ask) pinned the same way.",
            "Prints PASS, FAIL (with the differences) or SKIP per plan, then 'N passed, M failed'.",
            "A plan that has not finished after --plan-timeout seconds (default "
                    + RegressionRun.DEFAULT_TIME_LIMIT_SECONDS + ") fails, saying where it was; its run is stopped."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every plan met its expectation (plans without one are skipped); --update done",
            "1:some plan failed, or a file could not be written",
            "2:bad usage, no plan found, or no plan has an expectation"
        })
final class TestCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private PlanPaths planPaths;

    @CommandLine.Option(
            names = "--update",
            description =
                    "Write each plan's X.expected.json from what it does now (snapshot); expectations still met are left as they are.")
    private boolean update;

    @CommandLine.Option(
            names = "--junit-xml",
            paramLabel = "FILE",
            description = "Also write a JUnit XML report to FILE.")
    private Path junitXml;

    @CommandLine.Option(
            names = "--html",
            paramLabel = "DIR",
            description =
                    "Write an HTML report (DIR/X.html) for each failing plan: its run, with the differences from X.expected.json.")
    private Path html;

    @CommandLine.Mixin
    private RunSettings settings;

    @CommandLine.Mixin
    private ConfigOptions config;

    @CommandLine.Option(
            names = "--live",
            paramLabel = "TOOLS",
            split = ",",
            description =
                    "Call these tools for real and answer every other call from the plan's cassette (pin the LLM's "
                            + "answers, exercise retrieval live). Comma-separated, repeatable.")
    private Set<String> live = Set.of();

    @CommandLine.Option(
            names = "--plan-timeout",
            paramLabel = "SECONDS",
            description = "Each plan's time limit (decimals allowed; default "
                    + RegressionRun.DEFAULT_TIME_LIMIT_SECONDS
                    + "): a plan still running then fails and its run is stopped, so a sleeping or hung plan"
                    + " cannot hang the test run.")
    private String planTimeout;

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
            throw new CommandLine.ParameterException(
                    commandLine, "--junit-xml reports a test run; it does not go with --update");
        }
        if (update && html != null) {
            throw new CommandLine.ParameterException(
                    commandLine, "--html reports a test run; it does not go with --update");
        }
        Map<String, String> secrets = settings.secrets(parent.environment(), commandLine);
        Map<String, JsonNode> inputs = RunSettings.withSecrets(settings.inputs(commandLine), secrets);
        List<Path> plans = plans(commandLine);
        UnaryOperator<RunClock> clock = settings.clock().adjust(commandLine);
        try (PlanVm vm = settings.applyTo(PlanVm.builder())
                .secrets(secrets)
                .tools(config.load(parent.environment(), secrets), ToolPolicy.ALLOW_ALL)
                .planTools(PlanInput.importedPlanTools(
                        plans.stream().map(Path::toString).toList(), null))
                .build()) {
            RedactingLogs.use(vm.redactor());
            RegressionRun regression = new RegressionRun(PlanInput.runner(vm, clock), inputs, live)
                    .withTimeLimit(planTimeout(commandLine));
            AskTests asks = new AskTests(vm, inputs);
            return update ? update(regression, asks, plans, out, err) : test(regression, asks, plans, out, err);
        }
    }

    private int test(RegressionRun regression, AskTests asks, List<Path> plans, PrintWriter out, PrintWriter err)
            throws IOException {
        List<RegressionResult> results = new ArrayList<>();
        for (Path plan : plans) {
            PlanOutcome[] ran = new PlanOutcome[1];
            RegressionResult result =
                    PlanFiles.isAsk(plan) ? asks.test(plan) : regression.test(plan, outcome -> ran[0] = outcome);
            result.lines().forEach(line -> out.println(TerminalText.safe(line)));
            out.flush();
            results.add(result);
            if (html != null && result.verdict() == RegressionResult.Verdict.FAILED) {
                Path page = FailureReport.write(html, plan, result, ran[0]);
                out.println("  report: " + page);
            }
        }
        RegressionReport report = new RegressionReport(results);
        out.println(report.summary());
        if (junitXml != null) {
            JUnitXmlReport.write(junitXml, report);
        }
        if (report.skipped() == results.size()) {
            err.println(
                    "planvm test: no plan has an expectation (X.expected.json beside X.json); write them with --update");
            return ExitCodes.INVALID;
        }
        return report.allPassed() ? ExitCodes.OK : ExitCodes.RUNTIME_FAILURE;
    }

    private static int update(
            RegressionRun regression, AskTests asks, List<Path> plans, PrintWriter out, PrintWriter err) {
        Map<RegressionUpdate.Change, Integer> counts = new EnumMap<>(RegressionUpdate.Change.class);
        for (Path plan : plans) {
            try {
                RegressionUpdate change = PlanFiles.isAsk(plan) ? asks.update(plan) : regression.update(plan);
                out.println(TerminalText.safe(change.line()));
                counts.merge(change.change(), 1, Integer::sum);
            } catch (IOException e) {
                err.println(TerminalText.safe(
                        "planvm test: " + plan + ": " + e.getMessage())); // "cannot write X.expected.json: why"
                return ExitCodes.RUNTIME_FAILURE;
            } catch (RegressionRun.TimedOut e) {
                err.println(TerminalText.safe("planvm test: " + e.getMessage() + "; nothing was written"));
                return ExitCodes.RUNTIME_FAILURE;
            }
        }
        out.println(counts.getOrDefault(RegressionUpdate.Change.UPDATED, 0) + " updated, "
                + counts.getOrDefault(RegressionUpdate.Change.CREATED, 0) + " created, "
                + counts.getOrDefault(RegressionUpdate.Change.UNCHANGED, 0) + " unchanged");
        return ExitCodes.OK;
    }

    /** The {@code --plan-timeout}: a positive number of seconds; the default when not given. */
    private Duration planTimeout(CommandLine commandLine) {
        if (planTimeout == null) {
            return RegressionRun.DEFAULT_TIME_LIMIT;
        }
        try {
            BigDecimal seconds = new BigDecimal(planTimeout.strip());
            if (seconds.signum() > 0
                    && seconds.compareTo(BigDecimal.valueOf(Duration.ofDays(365).toSeconds())) <= 0) {
                return Duration.ofMillis(seconds.movePointRight(3)
                        .setScale(0, RoundingMode.CEILING)
                        .longValueExact());
            }
        } catch (ArithmeticException | NumberFormatException e) {
            // the message below
        }
        throw new CommandLine.ParameterException(
                commandLine, "--plan-timeout " + planTimeout + ": expected a positive number of seconds");
    }

    /** The plan files the PATHs stand for, each once; a usage error when a PATH is missing or none is found. */
    private List<Path> plans(CommandLine commandLine) {
        return PlanFiles.of(planPaths.paths(), false, true, commandLine).stream()
                .map(file -> Path.of(file).normalize())
                .distinct()
                .toList();
    }
}
