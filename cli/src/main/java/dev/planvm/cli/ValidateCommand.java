package dev.planvm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.PlanVm;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code planvm validate FILE...}: checks plans without running them. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Check plans against the schema and the static rules, without running them.",
            "Errors go to stdout as FILE: seq_no N at /pointer: message; warnings to stderr."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every plan is valid (warnings allowed)", "2:some plan is invalid, or bad usage"})
final class ValidateCommand implements Callable<Integer> {

    enum Format {
        text,
        json
    }

    @CommandLine.Parameters(
            arity = "1..*",
            paramLabel = "PATH",
            description =
                    "Plan files (JSON, YAML, PPE or JavaScript), or directories of them (their *.json files but *.cassette.json"
                            + " and *.expected.json, and their *.yaml, *.yml, *.ai.yaml and *.js files). '-' reads standard input.")
    private List<String> paths;

    @CommandLine.Option(
            names = "--dialect",
            paramLabel = "yaml|js|ppe|json",
            converter = DialectConverter.class,
            description = DialectConverter.DESCRIPTION)
    private Dialect dialect;

    @CommandLine.Option(
            names = "--input",
            paramLabel = "NAME",
            split = ",",
            description = "A variable the run will be given (--var NAME=...). Given, the inputs are declared: reading a"
                    + " variable that is neither an input nor assigned by the plan is an error, not a warning."
                    + " Comma-separated, repeatable.")
    private Set<String> inputs = Set.of();

    @CommandLine.Mixin
    private ConfigOptions config;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @CommandLine.Option(
            names = "--format",
            defaultValue = "text",
            description =
                    "text (one line per problem) or json (one document with every diagnostic). Default: ${DEFAULT-VALUE}.")
    private Format format;

    @CommandLine.Option(
            names = {"-q", "--quiet"},
            description = "Print errors only: no warnings, no 'ok' lines.")
    private boolean quiet;

    @CommandLine.Mixin
    private ToolPolicyOptions tools;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws java.io.IOException {
        ToolPolicy policy = tools.policy(spec.commandLine());
        LoadedTools loaded = config.load(parent.environment(), Map.of());
        // the VM a run would have, as far as validate can know it (no MCP server is started): one check pipeline
        try (PlanVm vm = PlanVm.builder()
                .toolPolicy(policy)
                .tools(loaded, policy)
                .planToolFiles(PlanInput::isPlanToolFile, PlanInput::loadPlanTool)
                .planTools(PlanInput.planToolDirImports(loaded.planToolDirs()))
                .build()) {
            return validate(vm);
        }
    }

    private int validate(PlanVm vm) throws java.io.IOException {
        PlanLoader loader = vm.loader();
        PlanSources sources = inputs.isEmpty()
                ? PlanInput.sources(loader, inputs)
                : PlanSources.of(loader).withDeclaredInputs(inputs);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);
        ArrayNode reports = mapper.createArrayNode();
        boolean allValid = true;
        for (String file : PlanFiles.of(paths, true, spec.commandLine())) {
            LoadResult result = refused(PlanInput.load(sources, file, dialect), vm);
            allValid &= result.valid();
            if (format == Format.json) {
                reports.add(report(mapper, file, result));
                continue;
            }
            for (Diagnostic diagnostic : result.diagnostics()) {
                if (diagnostic.isError()) {
                    out.println(TerminalText.safe(diagnostic.format(file)));
                } else if (!quiet) {
                    err.println(TerminalText.safe(diagnostic.format(file)));
                }
            }
            if (result.valid() && !quiet) {
                int warnings = result.warnings().size();
                out.println(TerminalText.safe(file) + ": ok ("
                        + count(result.plan().instructions().size(), "instruction")
                        + (warnings == 0 ? "" : ", " + count(warnings, "warning")) + ")");
            }
        }
        if (format == Format.json) {
            ObjectNode document = mapper.createObjectNode().put("valid", allValid);
            document.set("files", reports);
            out.println(TerminalText.JSON.withDefaultPrettyPrinter().writeValueAsString(document));
        }
        out.flush();
        err.flush();
        return allValid ? ExitCodes.OK : ExitCodes.INVALID;
    }

    /**
     * The result with an error for everything that refuses its plan on {@code vm} whatever a run sets up
     * ({@link PlanVm#refusals}: denied tools, unusable plan tools, params that cannot fit): what every run refuses
     * too, before anything runs.
     */
    private static LoadResult refused(LoadResult result, PlanVm vm) {
        if (!result.valid()) {
            return result;
        }
        List<Diagnostic> refusals = vm.refusals(result.plan());
        if (refusals.isEmpty()) {
            return result;
        }
        List<Diagnostic> diagnostics = new ArrayList<>(result.diagnostics());
        diagnostics.addAll(refusals);
        return new LoadResult(result.source(), null, diagnostics);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static ObjectNode report(ObjectMapper mapper, String file, LoadResult result) {
        ObjectNode report = mapper.createObjectNode().put("file", file).put("valid", result.valid());
        ArrayNode diagnostics = report.putArray("diagnostics");
        for (Diagnostic d : result.diagnostics()) {
            ObjectNode item =
                    diagnostics.addObject().put("severity", d.severity().name().toLowerCase());
            if (d.seqNo() == null) {
                item.putNull("seq_no");
            } else {
                item.put("seq_no", d.seqNo());
            }
            item.put("pointer", d.pointer()).put("message", d.message());
        }
        return report;
    }
}
