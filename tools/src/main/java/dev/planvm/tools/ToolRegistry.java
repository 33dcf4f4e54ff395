package dev.planvm.tools;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The tools a run can call, by name. Immutable; build one with {@link #of}. */
public final class ToolRegistry {

    private final Map<String, Tool> tools;

    private ToolRegistry(Map<String, Tool> tools) {
        this.tools = tools;
    }

    /** A registry of these tools; two tools with one name are an error. */
    public static ToolRegistry of(Collection<? extends Tool> tools) {
        Map<String, Tool> byName = new TreeMap<>();
        for (Tool tool : tools) {
            Tool previous = byName.putIfAbsent(tool.name(), tool);
            if (previous != null && previous != tool) {
                throw new IllegalArgumentException("two tools are named '" + tool.name() + "'");
            }
        }
        return new ToolRegistry(java.util.Collections.unmodifiableMap(byName));
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Tool names, sorted. */
    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    /** The tools, sorted by name. */
    public Collection<Tool> all() {
        return tools.values();
    }
}
