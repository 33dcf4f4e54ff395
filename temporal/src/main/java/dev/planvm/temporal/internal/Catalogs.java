package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.temporal.contract.ToolInfo;
import dev.planvm.tools.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a worker says about the tools it holds: what a workflow needs to schedule their calls. Their
 * descriptions stay out (a workflow records the catalog in its history, and does not need them).
 */
final class Catalogs {

    private Catalogs() {}

    static ToolCatalog of(List<Tool> tools, boolean conditions, Map<String, String> unavailable) {
        List<ToolInfo> infos = new ArrayList<>();
        for (Tool tool : tools) {
            infos.add(new ToolInfo(
                    tool.name(),
                    "",
                    tool.hasSideEffects(),
                    tool.maxAttempts().isPresent() ? tool.maxAttempts().getAsInt() : null,
                    tool.callTimeout().map(java.time.Duration::toMillis).orElse(null)));
        }
        return new ToolCatalog(infos, conditions, unavailable);
    }
}
