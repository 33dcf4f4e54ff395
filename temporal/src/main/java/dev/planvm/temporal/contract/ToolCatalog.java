package dev.planvm.temporal.contract;

import java.util.List;
import java.util.Map;

/**
 * What the workers of one task queue hold.
 *
 * @param tools       the tools they can call
 * @param conditions  whether they decide {@code condition_prompt}s (an LLM is configured)
 * @param unavailable tools they know of but cannot call, with why
 */
public record ToolCatalog(List<ToolInfo> tools, boolean conditions, Map<String, String> unavailable) {
    public ToolCatalog {
        tools = tools == null ? List.of() : List.copyOf(tools);
        unavailable = unavailable == null ? Map.of() : Map.copyOf(unavailable);
    }
}
