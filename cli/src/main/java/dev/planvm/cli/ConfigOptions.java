package dev.planvm.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.planvm.tools.config.LoadedTools;
import dev.planvm.tools.config.ToolsConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * Where a command's tools come from: the {@code ToolProvider}s on the class path (llm_generate when
 * an LLM is configured), the tools configuration ({@code --config}, {@code $PLANVM_CONFIG}, else
 * {@code planvm.json} in the current directory when there is one) and tool jars ({@code --tools-path},
 * {@code $PLANVM_TOOLS_PATH}). A configuration with problems is a {@code ToolsConfigException} (exit 2,
 * every problem listed).
 */
final class ConfigOptions {

    @CommandLine.Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The tools configuration (JSON: mcpServers, httpTools, openapi, toolPaths, knowledge, llm). "
                    + "Default: $PLANVM_CONFIG, else planvm.json in the current directory when there is one.")
    private Path config;

    @CommandLine.Option(
            names = "--tools-path",
            paramLabel = "PATH",
            description = "A tool jar, or a directory of them, whose ToolProviders add tools (also $PLANVM_TOOLS_PATH, "
                    + "separated by ':'). Repeatable.")
    private List<Path> toolsPath = List.of();

    @CommandLine.Option(
            names = "--kb",
            paramLabel = "NAME",
            description = "Answer vector_search and retrieve_knowledge_graph from knowledge base NAME (built with "
                    + "planvm kb index; sets \"knowledge\": {\"kb\": NAME} over the configuration's).")
    private String kb;

    @CommandLine.Option(
            names = "--plan-tools",
            paramLabel = "DIR",
            description = "A directory of plan tools: plans that name themselves ({\"name\": ..., \"inputs\": {...},"
                    + " \"plan\": [...]}), which plans call like any tool. Adds to planTools of the configuration."
                    + " Repeatable.")
    private List<Path> planTools = List.of();

    @CommandLine.Option(
            names = "--model",
            paramLabel = "MODEL",
            description = "The LLM model of llm_generate, conditions and the planner: a model name, provider:model "
                    + "(anthropic:claude-haiku-4-5, ollama:llama3.2) or a named model of planvm.json (sets \"llm\": "
                    + "{\"model\": MODEL} over the configuration's and PLANVM_MODEL).")
    private String model;

    @CommandLine.Option(
            names = "--condition-model",
            paramLabel = "MODEL",
            description = "The model that decides LLM conditions (condition_prompt), written like --model "
                    + "(default: --model's).")
    private String conditionModel;

    @CommandLine.Option(
            names = "--planner-model",
            paramLabel = "MODEL",
            description = "The model that writes plans (plan, ask, re-planning), written like --model "
                    + "(default: --model's).")
    private String plannerModel;

    /** The {@code --plan-tools} directories, resolved against the working directory. */
    List<Path> planToolDirs() {
        Path workingDir = Path.of("").toAbsolutePath();
        return planTools.stream().map(workingDir::resolve).toList();
    }

    /** Loads the tools; the caller closes them (or a VM built with them does). */
    LoadedTools load(Map<String, String> environment, Map<String, String> secrets) {
        Path workingDir = Path.of("").toAbsolutePath();
        Path file = ToolsConfig.locate(workingDir, environment, config).orElse(null);
        List<Path> extra = new ArrayList<>(toolsPath);
        extra.addAll(ToolsConfig.toolsPathFromEnvironment(workingDir, environment));
        Map<String, JsonNode> overrides = new java.util.LinkedHashMap<>();
        if (kb != null) {
            overrides.put("knowledge", JsonNodeFactory.instance.objectNode().put("kb", kb));
        }
        if (model != null || conditionModel != null || plannerModel != null) {
            var llm = JsonNodeFactory.instance.objectNode();
            if (model != null) {
                llm.put("model", model);
            }
            if (conditionModel != null) {
                llm.put("conditions", conditionModel);
            }
            if (plannerModel != null) {
                llm.put("planner", plannerModel);
            }
            overrides.put("llm", llm);
        }
        if (!planTools.isEmpty()) {
            var dirs = JsonNodeFactory.instance.arrayNode();
            planTools.forEach(dir -> dirs.add(workingDir.resolve(dir).toString()));
            overrides.put(ToolsConfig.PLAN_TOOLS, dirs);
        }
        return ToolsConfig.load(file, environment, secrets, ToolsConfig.classPathProviders(), extra, overrides);
    }
}
