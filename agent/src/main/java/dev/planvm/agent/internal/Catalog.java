package dev.planvm.agent.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.llm.PlannerTool;
import dev.planvm.tools.Tool;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Interaction;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What the planner is told a plan may call: every tool the VM offers — those of configured MCP
 * servers included, which this starts, as {@code planvm tools} does ({@link
 * dev.planvm.tools.ToolRegistry#offered()}) — and its policy allows (by the tool's canonical name; the
 * planner itself left out), each with its name, description and params schema, and whether
 * {@code condition_prompt} jumps can be decided. In a replay the catalog is the one recorded with
 * the planner's first request, so the replay asks the very same question without the tools installed.
 *
 * @param tools      {@code [{"name", "description", "params"}]}, sorted by name
 * @param conditions whether LLM conditions are available
 */
public record Catalog(ArrayNode tools, boolean conditions) {

    /** The catalog of {@code vm} for a session in {@code mode}. */
    public static Catalog of(PlanVm vm, RunMode mode) {
        if (mode instanceof RunMode.Replay replay) {
            Optional<Catalog> recorded = recorded(replay.cassette());
            if (recorded.isPresent()) {
                return recorded.get();
            }
        }
        ArrayNode tools = JsonNodeFactory.instance.arrayNode();
        List<Tool> offered = new ArrayList<>(
                mode instanceof RunMode.Replay ? vm.tools().all() : vm.tools().offered());
        offered.sort(Comparator.comparing(Tool::name));
        for (Tool tool : offered) {
            if (tool.name().equals(PlannerTool.NAME)
                    || !vm.toolPolicy().allows(tool.canonicalName(), vm.tools().canonicalNames())) {
                continue;
            }
            ObjectNode entry = tools.addObject();
            entry.put("name", tool.name());
            entry.put("description", tool.description() == null ? "" : tool.description());
            entry.set("params", tool.paramsSchema());
        }
        boolean answered = mode instanceof RunMode.Replay || mode instanceof RunMode.DryRun;
        return new Catalog(tools, vm.hasConditionEvaluator() || answered);
    }

    /** The catalog recorded with the planner's first request in {@code cassette}, if it has one. */
    static Optional<Catalog> recorded(Cassette cassette) {
        for (Interaction interaction : cassette.interactions()) {
            if (interaction instanceof Interaction.ToolInteraction tool
                    && tool.tool().equals(PlannerTool.NAME)
                    && tool.params().path("tools").isArray()) {
                return Optional.of(new Catalog(
                        (ArrayNode) tool.params().get("tools").deepCopy(),
                        tool.params().path("conditions").asBoolean(false)));
            }
        }
        return Optional.empty();
    }

    /** The tool names, sorted. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.path("name").asText()));
        return names;
    }

    public boolean has(String tool) {
        for (JsonNode entry : tools) {
            if (entry.path("name").asText().equals(tool)) {
                return true;
            }
        }
        return false;
    }

    /** The catalog as the prompt shows it: one tool per paragraph, its params schema as compact JSON. */
    String describe() {
        StringBuilder text = new StringBuilder();
        if (tools.isEmpty()) {
            text.append("No tools are available: a plan can only assign, jmp and reason.\n");
        }
        for (JsonNode tool : tools) {
            text.append("- ").append(tool.path("name").asText());
            String description = tool.path("description").asText();
            if (!description.isBlank()) {
                text.append(": ").append(description.strip());
            }
            text.append("\n  params schema: ")
                    .append(tool.path("params").toString())
                    .append('\n');
        }
        text.append(
                conditions
                        ? "LLM conditions (jmp with condition_prompt) are available.\n"
                        : "LLM conditions (jmp with condition_prompt) are not available: decide with a condition (${expr}) instead.\n");
        return text.toString();
    }
}
