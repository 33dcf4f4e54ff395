package dev.planvm.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.PlanSignature;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.json.TerminalText;
import dev.planvm.tools.Tool;
import dev.planvm.tools.approval.PersonTools;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.vm.plantools.PlanTools;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm tools}: the tools a run can call here, with descriptions and params schemas. Names,
 * descriptions and schemas come from MCP servers and other configured sources, so they are printed the
 * way every message is: through {@link TerminalText} (no terminal controls, no forged lines).
 */
@Command(
        name = "tools",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "List the tools a plan can call here, with descriptions and params schemas.",
            "Also lists the tools that are not available, with what to configure, and the built-ins every run has"
                    + " (human_input, sleep)."
        })
final class ToolsCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private OutputFormat format;

    @CommandLine.Mixin
    private ConfigOptions config;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    private PlanvmCommand parent;

    @Override
    public Integer call() throws Exception {
        try (LoadedTools loaded = config.load(parent.environment(), Map.of())) {
            return list(loaded);
        }
    }

    private int list(LoadedTools loaded) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        ObjectMapper mapper = JsonMappers.mapper(JsonLimits.STORE);
        List<Tool> tools = new java.util.ArrayList<>(loaded.all());
        for (Tool builtIn : PersonTools.all()) { // every VM has them, unless a configured tool takes the name
            if (tools.stream().noneMatch(t -> t.name().equals(builtIn.name()))) {
                tools.add(builtIn);
            }
        }
        tools.sort(Comparator.comparing(Tool::name));
        PlanTools.Read read = PlanTools.read(loaded.planToolDirs(), PlanInput::isPlanToolFile, PlanInput::loadPlanTool);
        Set<String> others = new HashSet<>();
        loaded.tools().forEach(tool -> others.add(tool.name()));
        // checked as a run's VM checks them: one that cannot be used is listed with why, the others as tools
        PlanTools.Checked checked = PlanTools.check(read, List.of(), others, PlanTools.DEFAULT_MAX_DEPTH);
        List<Plan> planTools = checked.usable();
        if (format.json()) {
            ObjectNode document = mapper.createObjectNode();
            ArrayNode list = document.putArray("tools");
            for (Tool tool : tools) {
                list.addObject()
                        .put("name", tool.name())
                        .put("description", tool.description())
                        .set("params_schema", tool.paramsSchema());
            }
            for (Plan plan : planTools) {
                PlanSignature signature = plan.signature().orElseThrow();
                ObjectNode entry = list.addObject()
                        .put("name", signature.name())
                        .put("description", signature.description())
                        .put("plan_tool", plan.source());
                entry.set("params_schema", signature.inputs() == null ? Tool.anyObjectSchema() : signature.inputs());
                if (signature.output() != null) {
                    entry.set("output_schema", signature.output());
                }
            }
            ObjectNode unavailable = document.putObject("unavailable");
            loaded.unavailable().forEach(unavailable::put);
            checked.unusable().forEach((name, why) -> unavailable.put(name, "plan tool: " + why));
            ArrayNode unnamed = document.putArray("unusable_plan_tool_files");
            checked.unnamed().forEach(unnamed::add);
            out.println(TerminalText.JSON.withDefaultPrettyPrinter().writeValueAsString(document));
            return ExitCodes.OK;
        }
        if (tools.isEmpty()
                && planTools.isEmpty()
                && checked.unusable().isEmpty()
                && checked.unnamed().isEmpty()) {
            out.println("No tools are available.");
        }
        for (Tool tool : tools) {
            out.println(TerminalText.safe(tool.name()));
            if (!tool.description().isBlank()) {
                out.println("  " + TerminalText.safe(tool.description()));
            }
            out.println("  params: " + TerminalText.JSON.writeValueAsString(tool.paramsSchema()));
        }
        for (Plan plan : planTools) {
            PlanSignature signature = plan.signature().orElseThrow();
            out.println(TerminalText.safe(signature.name()) + " (plan tool: " + TerminalText.safe(plan.source()) + ")");
            if (!signature.description().isBlank()) {
                out.println("  " + TerminalText.safe(signature.description()));
            }
            out.println("  params: "
                    + TerminalText.JSON.writeValueAsString(
                            signature.inputs() == null ? Tool.anyObjectSchema() : signature.inputs()));
            if (signature.output() != null) {
                out.println("  output: " + TerminalText.JSON.writeValueAsString(signature.output()));
            }
        }
        loaded.unavailable()
                .forEach((name, why) ->
                        out.println(TerminalText.safe(name) + " (not available: " + TerminalText.safe(why) + ")"));
        checked.unusable()
                .forEach((name, why) -> out.println(
                        TerminalText.safe(name) + " (plan tool, not available: " + TerminalText.safe(why) + ")"));
        checked.unnamed()
                .forEach(why -> out.println("a plan-tool file (not available: " + TerminalText.safe(why) + ")"));
        out.println(
                loaded.conditionEvaluator().isPresent()
                        ? "LLM conditions (jmp condition_prompt): available"
                        : "LLM conditions (jmp condition_prompt): not available");
        return ExitCodes.OK;
    }
}
