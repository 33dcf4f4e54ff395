package dev.planvm.temporal.internal;

import dev.planvm.temporal.contract.ToolCatalog;
import dev.planvm.temporal.contract.ToolInfo;
import dev.planvm.tools.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What a worker says about the tools it holds. */
final class Catalogs {

    private Catalogs() {
    }

    static ToolCatalog of(List<Tool> tools, boolean conditions, Map<String, String> unavailable) {
        List<ToolInfo> infos = new ArrayList<>();
        for (Tool tool : tools) {
            infos.add(new ToolInfo(tool.name(), tool.description(), tool.hasSideEffects(),
                    tool.maxAttempts().isPresent() ? tool.maxAttempts().getAsInt() : null,
                    tool.callTimeout().map(java.time.Duration::toMillis).orElse(null)));
        }
        return new ToolCatalog(infos, conditions, unavailable);
    }
}
