package dev.planvm.vm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.reach.ReachPolicy;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import java.util.List;
import java.util.Map;

/**
 * Claims the {@code policy} section of {@code planvm.json} (what plans must not be able to do, {@link ReachPolicy}),
 * so the configuration loader checks it against its schema and reports every mistake in it, located, with the
 * file's other problems; it offers no tool. The engine ({@code PlanVmBuilder.tools(LoadedTools, ...)}) and the
 * command line read the section through {@link #policy}.
 */
public final class PolicySection implements ToolProvider {

    public PolicySection() {
        // found by ServiceLoader
    }

    @Override
    public Map<String, JsonNode> configSections() {
        return Map.of(ReachPolicy.SECTION, ReachPolicy.schema());
    }

    /**
     * Checks what the schema cannot (the grammar of a flow's source; the loader asks only once the schema holds);
     * offers no tool.
     */
    @Override
    public List<Tool> tools(ToolSetup setup) {
        setup.section(ReachPolicy.SECTION)
                .ifPresent(section -> ReachPolicy.read(section, "/" + ReachPolicy.SECTION, setup::problem));
        return List.of();
    }

    /** The policy a configuration's setup holds; {@link ReachPolicy#NONE} without the section. */
    public static ReachPolicy policy(ToolSetup setup) {
        return setup.section(ReachPolicy.SECTION)
                .map(section -> ReachPolicy.read(section, "", (pointer, message) -> {}))
                .orElse(ReachPolicy.NONE);
    }
}
