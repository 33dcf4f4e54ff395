package dev.planvm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.AtomicFiles;
import dev.planvm.json.JsonErrors;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.server.report.ChildReport;
import dev.planvm.server.report.HtmlReport;
import dev.planvm.server.report.ReportInput;
import dev.planvm.server.report.Reports;
import dev.planvm.vm.durable.DurableRuns;
import dev.planvm.vm.durable.RunStore;
import dev.planvm.vm.durable.StoredRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm report RUN|TRACE.json -o report.html}: one self-contained HTML page of a run. */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Write a run's report: one self-contained HTML file (no external fetch) with the plan as a flow graph, "
                    + "a timeline of steps and calls, every step's inputs, writes and errors, the run's lineage, and what"
                    + " the plan could do (validate --reach, with the configured tools) beside what it did.",
            "The run is a stored run's id, or a trace file (run --trace OUT); a trace's plan is read from --plan, or from "
                    + "the file the trace names when its digest matches."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:written", "1:the file cannot be written", "2:no such run or trace, or bad usage"})
final class ReportCommand implements Callable<Integer> {

    private static final long MAX_TRACE_BYTES = 256L << 20;

    @CommandLine.Parameters(
            index = "0",
            paramLabel = "RUN|TRACE",
            description = "A stored run's id (or prefix), or a trace file.")
    private String run;

    @CommandLine.Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            defaultValue = "report.html",
            description = "Where to write the page (default: ${DEFAULT-VALUE}).")
    private Path output;

    @CommandLine.Option(
            names = "--plan",
            paramLabel = "FILE",
            description = "The plan a trace file ran (for the flow graph).")
    private Path plan;

    @CommandLine.Mixin
    private StoreOptions store;

    @CommandLine.Mixin
    private ConfigOptions config;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws IOException {
        CommandLine commandLine = spec.commandLine();
        Path file = Path.of(run);
        List<ChildReport> children = new ArrayList<>();
        ReportInput input = Files.isRegularFile(file) ? fromTrace(commandLine, file) : fromStore(children);
        input = input.withReach(reach(input));
        try {
            AtomicFiles.write(output, HtmlReport.render(input, children));
        } catch (IOException e) {
            commandLine.getErr().println("planvm report: cannot write " + output + ": " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        }
        commandLine.getErr().println("planvm report: wrote " + output);
        return ExitCodes.OK;
    }

    /** A stored run's report; {@code children} gets the reports of the child runs its plan-tool calls started. */
    private ReportInput fromStore(List<ChildReport> children) {
        try (RunStore runs = store.openExisting(parent.environment())) {
            StoredRun stored = DurableRuns.find(runs, run);
            for (RunStore.ChildRun child : runs.children(stored.id())) {
                ReportInput report = children.size() < MAX_CHILD_REPORTS
                        ? runs.find(child.summary().id())
                                .map(found -> Reports.of(found, List.of(found)))
                                .orElse(null)
                        : null;
                children.add(new ChildReport(child.summary().id(), child.seqNo(), report));
            }
            return Reports.of(stored, Reports.lineage(stored, id -> runs.find(id)));
        }
    }

    private static final int MAX_CHILD_REPORTS = 50;

    /**
     * What the run's plan could do, for the report beside what it did ({@code validate --reach} with the configured
     * tools); {@code null} when the report has no plan or it does not load.
     */
    private com.fasterxml.jackson.databind.JsonNode reach(ReportInput input) {
        if (input.plan() == null) {
            return null;
        }
        java.util.Set<String> inputs = new java.util.HashSet<>();
        input.trace().path("inputs").fieldNames().forEachRemaining(inputs::add);
        String source = input.trace().path("plan").path("source").asText("plan.json");
        dev.planvm.instructions.LoadResult loaded =
                new dev.planvm.instructions.PlanLoader().withInputs(inputs).load(input.plan(), source);
        if (!loaded.valid()) {
            return null;
        }
        try (dev.planvm.tools.config.LoadedTools tools = config.load(parent.environment(), java.util.Map.of())) {
            List<dev.planvm.instructions.Plan> planTools = dev.planvm.vm.plantools.PlanTools.load(
                    tools.planToolDirs(), PlanInput::isPlanToolFile, PlanInput::loadPlanTool);
            ValidateReach reach = new ValidateReach(
                    tools,
                    dev.planvm.tools.ToolRegistry.of(tools.tools()),
                    planTools,
                    List.of(),
                    java.util.Set.of(),
                    dev.planvm.instructions.reach.ReachPolicy.NONE,
                    true);
            return reach.analyze(loaded.plan(), Files.isRegularFile(Path.of(source)) ? source : "-", null)
                    .toJson();
        }
    }

    private ReportInput fromTrace(CommandLine commandLine, Path file) throws IOException {
        if (Files.size(file) > MAX_TRACE_BYTES) {
            throw new CommandLine.ParameterException(
                    commandLine, run + ": larger than 256 MiB, not a trace planvm wrote");
        }
        ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);
        JsonNode trace;
        try {
            trace = mapper.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new CommandLine.ParameterException(
                    commandLine, run + ": not a JSON trace: " + JsonErrors.malformed(e));
        } catch (IOException e) {
            throw new CommandLine.ParameterException(commandLine, run + ": cannot read the trace: " + e.getMessage());
        }
        if (trace == null || !"planvm-trace/1".equals(trace.path("format").asText())) {
            throw new CommandLine.ParameterException(
                    commandLine, run + ": not a planvm trace (\"format\" is not \"planvm-trace/1\")");
        }
        return Reports.of(
                trace,
                planOf(commandLine, trace, file),
                "planvm trace " + file.getFileName() + " · "
                        + trace.path("plan").path("source").asText("?"));
    }

    /** The plan document: {@code --plan}, else the file the trace names when it is there and its digest matches, else none. */
    private JsonNode planOf(CommandLine commandLine, JsonNode trace, Path file) {
        Path candidate = plan;
        if (candidate == null) {
            String source = trace.path("plan").path("source").asText("");
            if (source.isEmpty() || source.startsWith("<")) {
                return null;
            }
            candidate = Path.of(source);
            if (!candidate.isAbsolute() && !Files.exists(candidate)) {
                candidate = file.toAbsolutePath().getParent().resolve(source);
            }
            if (!Files.isRegularFile(candidate)) {
                return null;
            }
        }
        java.util.Set<String> inputs = new java.util.HashSet<>();
        trace.path("inputs").fieldNames().forEachRemaining(inputs::add);
        dev.planvm.instructions.LoadResult loaded = PlanInput.sources(new dev.planvm.instructions.PlanLoader(), inputs)
                .load(candidate); // a YAML or JavaScript plan: the StackVM JSON it compiles to, which the trace ran
        if (!loaded.valid()) {
            if (plan != null) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--plan " + plan + ": " + loaded.errors().get(0).format(plan.toString()));
            }
            return null;
        }
        boolean matches =
                loaded.plan().digest().equals(trace.path("plan").path("digest").asText());
        return plan != null || matches ? loaded.plan().document() : null;
    }
}
