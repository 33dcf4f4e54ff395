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

    /**
     * The canonical name of the tool a plan calls as {@code name} ({@link Tool#canonicalName()}): the
     * full name an alias stands for ({@code fs:read_file} for {@code read_file}), else {@code name}
     * itself. A bare name nobody has set up yet is looked up like {@link #find} does (which may start a
     * server: the call would start it anyway); a full name ({@code server:tool}) is canonical as written
     * and sets nothing up. Rules match this name, never the spelling.
     */
    public String canonicalName(String name) {
        Optional<Tool> known = findResolved(name);
        if (known.isPresent()) {
            return known.get().canonicalName();
        }
        if (name.indexOf(':') >= 0) {
            return name;
        }
        return find(name).map(Tool::canonicalName).orElse(name);
    }

    /**
     * {@link #canonicalName} without setting anything up (for a replay or a dry run, whose calls no
     * tool answers): a bare name that was not set up yet stays as written.
     */
    public String knownCanonicalName(String name) {
        return findResolved(name).map(Tool::canonicalName).orElse(name);
    }

    /** Names read through {@link #canonicalName} (tools set up as needed), for rules: see {@link ToolNames}. */
    public ToolNames canonicalNames() {
        return ToolNames.of(this::canonicalName);
    }

    /** Names read through {@link #knownCanonicalName} (nothing set up), for a replay or dry run. */
    public ToolNames knownCanonicalNames() {
        return ToolNames.of(this::knownCanonicalName);
    }

    /** Why no tool answers to {@code name}, when the resolver knows (a server that failed, a denied bare name). */
    public Optional<String> whyUnavailable(String name) {
        return Optional.ofNullable(resolver.unavailable().get(name));
    }

    /** The names of the given tools, sorted (tools a resolver sets up on first use are not listed). */
    public List<String> names() {
        return List.copyOf(tools.keySet());
    }

    /** The given tools, sorted by name (tools a resolver sets up on first use are not listed: see {@link #offered()}). */
    public Collection<Tool> all() {
        return tools.values();
    }

    /**
     * Every tool a plan can call here, sorted by name: the given ones and every one the resolver offers
     * ({@link ToolResolver#all()}, which sets them up: it may start MCP servers). What an agent's planner
     * is offered, like {@code planvm tools} lists it.
     */
    public List<Tool> offered() {
        Map<String, Tool> byName = new TreeMap<>(tools);
        for (Tool tool : resolver.all()) {
            byName.putIfAbsent(tool.name(), tool);
        }
        return List.copyOf(byName.values());
    }
}
