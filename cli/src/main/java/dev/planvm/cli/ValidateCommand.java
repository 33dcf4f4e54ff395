package dev.planvm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.reach.Reach;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.plantools.PlanTools;
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
            paramLabel = "yaml|js|ppe|idyll|json",
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

    @CommandLine.Option(
            names = "--reach",
            description = "Also report what each valid plan can do before it runs: every tool it can reach (plan tools"
                    + " expanded) with its call sites, the most calls on any path, whether each call that may change"
                    + " the world is behind an approval rule, where each param's value can come from, and the hosts it"
                    + " reaches. A table after each plan, or \"reach\" in --format json (schema planvm-reach/1).")
    private boolean reach;

    @CommandLine.Option(
            names = "--secret",
            paramLabel = "NAME",
            split = ",",
            description = "A variable the run will be given as a secret (--secret NAME on run): the reach report and"
                    + " --deny-flow 'secret:...' follow it. A value after = is ignored. Comma-separated, repeatable.")
    private List<String> secrets = List.of();

    @CommandLine.Option(
            names = "--approve-tools",
            paramLabel = "GLOBS",
            split = ",",
            description = "Tools whose every call the run will have approved (as on run; also approveTools in the"
                    + " configuration): the reach report and --require-approval-for count them as gated."
                    + " Comma-separated, repeatable.")
    private List<String> approveTools = List.of();

    @CommandLine.Mixin
    private ReachPolicyOptions reachPolicy;

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
            // a plan tool that does not load is the VM's to refuse (only for the plans that call it)
            List<Plan> planTools = PlanTools.read(
                            loaded.planToolDirs(), PlanInput::isPlanToolFile, PlanInput::loadPlanTool)
                    .plans();
            return validate(vm, reachOf(loaded, ToolRegistry.of(loaded.tools()), planTools));
        }
    }

    private int validate(PlanVm vm, ValidateReach reaches) throws java.io.IOException {
        PlanLoader loader = vm.loader();
        Set<String> given = new java.util.LinkedHashSet<>(inputs);
        given.addAll(reaches.secrets()); // a secret is a variable the run is given
        PlanSources sources = inputs.isEmpty()
                ? PlanInput.sources(loader, given)
                : PlanSources.of(loader).withDeclaredInputs(given);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);
        ArrayNode reports = mapper.createArrayNode();
        boolean allValid = true;
        for (String file : PlanFiles.of(paths, true, spec.commandLine())) {
            LoadResult result = refused(PlanInput.load(sources, file, dialect), vm);
            Reach reached = result.valid() && reaches.active() ? reaches.analyze(result.plan(), file, dialect) : null;
            if (reached != null) {
                result = ValidateReach.refuse(result, reached);
            }
            allValid &= result.valid();
            if (format == Format.json) {
                ObjectNode report = report(mapper, file, result);
                if (reaches.report()) {
                    report.set("reach", reached == null ? mapper.nullNode() : reached.toJson());
                }
                reports.add(report);
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
            if (reached != null && reaches.report()) {
                reached.table().lines().forEach(line -> out.println(TerminalText.safe(line)));
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

    /** What {@code --reach} and the reach policy need: the tools as far as known here, approvals, secrets. */
    private ValidateReach reachOf(LoadedTools loaded, ToolRegistry known, List<Plan> planTools) {
        List<String> names = new ArrayList<>();
        secrets.forEach(secret -> {
            String name = secret.contains("=") ? secret.substring(0, secret.indexOf('=')) : secret;
            if (!name.isBlank()) {
                names.add(name.strip());
            }
        });
        List<String> globs = approveTools.stream()
                .map(String::strip)
                .filter(g -> !g.isEmpty())
                .toList();
        try {
            return new ValidateReach(
                    loaded,
                    known,
                    planTools,
                    globs,
                    java.util.Set.copyOf(names),
                    reachPolicy.policy(spec.commandLine()),
                    reach);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
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
