package dev.planvm.tools;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * What {@link ToolProvider}s on the class path offer in one environment: tools, the tools they
 * cannot offer (and why), and a condition evaluator.
 *
 * @param tools       the available tools
 * @param unavailable tool name to the reason it is not available
 * @param conditions  the first condition evaluator offered, if any
 */
public record ToolDiscovery(List<Tool> tools, Map<String, String> unavailable, Optional<ConditionEvaluator> conditions) {

    public ToolDiscovery {
        tools = List.copyOf(tools);
        unavailable = Map.copyOf(unavailable);
    }

    /** Asks every provider found by {@link ServiceLoader} on this class loader. */
    public static ToolDiscovery discover(Map<String, String> environment) {
        return discover(ServiceLoader.load(ToolProvider.class, ToolDiscovery.class.getClassLoader()), environment);
    }

    /** Asks these providers. */
    public static ToolDiscovery discover(Iterable<ToolProvider> providers, Map<String, String> environment) {
        List<Tool> tools = new ArrayList<>();
        Map<String, String> unavailable = new TreeMap<>();
        Optional<ConditionEvaluator> conditions = Optional.empty();
        for (ToolProvider provider : providers) {
            tools.addAll(provider.tools(environment));
            unavailable.putAll(provider.unavailable(environment));
            if (conditions.isEmpty()) {
                conditions = provider.conditionEvaluator(environment);
            }
        }
        return new ToolDiscovery(tools, unavailable, conditions);
    }
}
