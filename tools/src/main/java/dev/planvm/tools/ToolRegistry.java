package dev.planvm.tools;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tools a run can call, by name: the tools given, then those a {@link ToolResolver} sets up when a
 * name is first asked for. Thread-safe; build one with {@link #of}.
 */
public final class ToolRegistry {

    private final Map<String, Tool> tools;
    private final ToolResolver resolver;
    private final Map<String, Optional<Tool>> resolved = new ConcurrentHashMap<>();

    private ToolRegistry(Map<String, Tool> tools, ToolResolver resolver) {
        this.tools = tools;
        this.resolver = resolver;
    }

    /** A registry of these tools; two tools with one name are an error. */
    public static ToolRegistry of(Collection<? extends Tool> tools) {
        return of(tools, ToolResolver.NONE);
    }

    /** A registry of these tools, asking {@code resolver} for other names. */
    public static ToolRegistry of(Collection<? extends Tool> tools, ToolResolver resolver) {
        Map<String, Tool> byName = new TreeMap<>();
        for (Tool tool : tools) {
            Tool previous = byName.putIfAbsent(tool.name(), tool);
            if (previous != null && previous != tool) {
                throw new IllegalArgumentException("two tools are named '" + tool.name() + "'");
            }
        }
        return new ToolRegistry(
                java.util.Collections.unmodifiableMap(byName), Objects.requireNonNull(resolver, "resolver"));
    }

    /** The tool named {@code name}: a given one, else one the resolver sets up (once). */
    public Optional<Tool> find(String name) {
        Tool tool = tools.get(name);
        if (tool != null) {
            return Optional.of(tool);
        }
        return resolved.computeIfAbsent(name, resolver::resolve);
    }

    /** The tool named {@code name} when it is a given one or was resolved already; never sets a tool up. */
    public Optional<Tool> findResolved(String name) {
        Tool tool = tools.get(name);
        if (tool != null) {
            return Optional.of(tool);
        }
        Optional<Tool> known = resolved.get(name);
        return known == null ? Optional.empty() : known;
    }

    /** Why no tool answers to {@code name}, when the resolver knows (a server that failed, a denied bare name). */
    public Optional<String> whyUnavailable(String name) {
        return Optional.ofNullable(resolver.unavailable().get(name));
    }

    /** The names of the given tools, sorted (tools a resolver sets up on first use are not listed). */
    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    /** The tools, sorted by name. */
    public Collection<Tool> all() {
        return tools.values();
    }
}
