package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.dialects.Dialect;
import dev.planvm.dialects.PlanSources;
import dev.planvm.instructions.Calling;
import dev.planvm.instructions.Diagnostic;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanLoader;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.instructions.reach.Reach;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.approval.PersonTools;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.plantools.PlanTools;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
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
        Set<String> toolNames;
        ToolRegistry known;
        ValidateReach reaches;
        Map<String, JsonNode> schemas = new HashMap<>();
        List<Plan> planTools = new ArrayList<>();
        try (LoadedTools loaded = config.load(parent.environment(), Map.of())) {
            toolNames = loaded.tools().stream().map(Tool::name).collect(Collectors.toSet());
            known = ToolRegistry.of(loaded.tools());
            PersonTools.all().forEach(tool -> schemas.put(tool.name(), tool.paramsSchema()));
            loaded.tools().forEach(tool -> schemas.put(tool.name(), tool.paramsSchema()));
            for (Plan plan :
                    PlanTools.load(loaded.planToolDirs(), PlanInput::isPlanToolFile, PlanInput::loadPlanTool)) {
                PlanSignature signature = plan.signature().orElseThrow();
                if (signature.inputs() != null) {
                    schemas.put(signature.name(), signature.inputs());
                }
                planTools.add(plan);
            }
            reaches = reachOf(loaded, known, planTools);
        }
        LiteralParams params = new LiteralParams(schemas);
        PlanLoader loader = new PlanLoader(toolNames, Set.of());
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
            LoadResult result = params.check(denied(PlanInput.load(sources, file, dialect), policy, known));
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
     * The result with an error for every call of a tool the policy denies (tool names are static), by
     * the tool's canonical name as far as {@code known} tools tell it (no server is started to learn it).
     */
    private static LoadResult denied(LoadResult result, ToolPolicy policy, ToolRegistry known) {
        if (!result.valid() || policy.allowsEverything()) {
            return result;
        }
        List<Diagnostic> diagnostics = new ArrayList<>(result.diagnostics());
        for (Instruction instruction : result.plan().instructions()) {
            if (instruction instanceof Calling calling) {
                policy.refusal(known.knownCanonicalName(calling.tool()), known.knownCanonicalNames())
                        .ifPresent(refusal -> diagnostics.add(Diagnostic.error(
                                calling.seqNo(), calling.header().pointer() + "/parameters", refusal)));
            }
        }
        boolean refused = diagnostics.size() > result.diagnostics().size();
        return new LoadResult(result.source(), refused ? null : result.plan(), diagnostics);
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
