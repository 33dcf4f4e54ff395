package dev.planvm.tools.config;

import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.ToolResolver;
import dev.planvm.tools.ToolSetup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tools a configuration declares, ready to hand to the VM, and what must be closed when they are
 * no longer needed (MCP server processes, the tool jars' class loader): close it once, when the
 * process (or the embedding application) is done with every run.
 *
 * <pre>{@code
 * try (LoadedTools loaded = ToolsConfig.load(file, env, secrets, ToolsConfig.classPathProviders())) {
 *     PlanVm vm = PlanVm.builder().tools(loaded, policy).toolPolicy(policy).build();
 *     ...
 * }
 * }</pre>
 *
 * Some tools are set up only when first needed (an MCP server starts when a plan calls one of its
 * tools): {@link #tools()} holds the others, {@link #resolver(ToolPolicy)} finds these by name, and
 * {@link #all()} sets everything up for a listing.
 */
public final class LoadedTools implements AutoCloseable {

    private final Path file;
    private final List<Tool> tools;
    private final Map<String, String> aliases;
    private final Map<String, String> unavailable;
    private final ConditionEvaluator conditions;
    private final ToolSetup setup;
    private final List<String> approveTools;
    private final List<Path> planToolDirs;

    LoadedTools(
            Path file,
            List<Tool> tools,
            Map<String, String> aliases,
            Map<String, String> unavailable,
            ConditionEvaluator conditions,
            ToolSetup setup,
            List<String> approveTools,
            List<Path> planToolDirs) {
        this.file = file;
        this.tools = List.copyOf(tools);
        this.aliases = Map.copyOf(aliases);
        this.unavailable = Map.copyOf(unavailable);
        this.conditions = conditions;
        this.setup = setup;
        this.approveTools = List.copyOf(approveTools);
        this.planToolDirs = List.copyOf(planToolDirs);
    }

    /** The {@code planTools} directories: their plans are offered as tools (resolved against the file's directory). */
    public List<Path> planToolDirs() {
        return planToolDirs;
    }

    /** The {@code approveTools} globs: tools whose calls need a reviewer's approval (empty: none). */
    public List<String> approveTools() {
        return approveTools;
    }

    /** The configuration file these tools come from; empty when there was none. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** Every tool, aliases included, in the order the providers offered them. */
    public List<Tool> tools() {
        return tools;
    }

    /**
     * The tools for a VM with this policy: every tool, less the aliases whose full name the policy
     * refuses (so {@code --deny-tools 'fs:*'} also keeps the bare name {@code read_file} of
     * {@code fs:read_file} from being called). Give the same policy to the VM, which refuses the full
     * names themselves.
     */
    public List<Tool> tools(ToolPolicy policy) {
        List<Tool> allowed = new ArrayList<>();
        for (Tool tool : tools) {
            if (tool instanceof ToolAlias alias && !policy.allows(alias.aliasOf())) {
                continue;
            }
            allowed.add(tool);
        }
        return allowed;
    }

    /**
     * Finds the tools set up on first use, by name: the providers' {@link ToolResolver}s in turn, less
     * the aliases whose full name {@code policy} refuses.
     */
    public ToolResolver resolver(ToolPolicy policy) {
        List<ToolResolver> resolvers = setup.resolvers();
        Map<String, String> denied = new java.util.concurrent.ConcurrentHashMap<>();
        for (Tool tool : tools) {
            deniedAlias(tool, policy).ifPresent(why -> denied.put(tool.name(), why));
        }
        return new ToolResolver() {
            @Override
            public Optional<Tool> resolve(String name) {
                for (ToolResolver resolver : resolvers) {
                    Optional<Tool> tool = resolver.resolve(name);
                    Optional<String> why = tool.flatMap(t -> deniedAlias(t, policy));
                    if (why.isPresent()) {
                        denied.put(name, why.get());
                    } else if (tool.isPresent()) {
                        return tool;
                    }
                }
                return Optional.empty();
            }

            @Override
            public List<Tool> all() {
                List<Tool> all = new ArrayList<>();
                resolvers.forEach(resolver ->
                        resolver.all().stream().filter(t -> allowed(t, policy)).forEach(all::add));
                return all;
            }

            @Override
            public Map<String, String> unavailable() {
                Map<String, String> why = new LinkedHashMap<>();
                resolvers.forEach(resolver -> why.putAll(resolver.unavailable()));
                why.putAll(denied);
                return why;
            }
        };
    }

    /** Why {@code tool} may not be called: it is the bare name of a tool the policy denies. */
    private static Optional<String> deniedAlias(Tool tool, ToolPolicy policy) {
        return tool instanceof ToolAlias alias
                ? policy.refusal(alias.aliasOf())
                        .map(refusal -> "it is the bare name of '" + alias.aliasOf() + "': " + refusal)
                : Optional.empty();
    }

    /** Every tool, those set up on first use included (which this sets up: it may start servers). */
    public List<Tool> all() {
        List<Tool> all = new ArrayList<>(tools);
        for (Tool tool : resolver(ToolPolicy.ALLOW_ALL).all()) {
            if (all.stream().noneMatch(known -> known.name().equals(tool.name()))) {
                all.add(tool);
            }
        }
        return all;
    }

    private static boolean allowed(Tool tool, ToolPolicy policy) {
        return !(tool instanceof ToolAlias alias) || policy.allows(alias.aliasOf());
    }

    /** Of the tools set up at load (not those set up on first use): alias name to the full name of the tool it calls (e.g. {@code read_file → fs:read_file}). */
    public Map<String, String> aliases() {
        return aliases;
    }

    /**
     * What the configuration declares but cannot offer here, and why: an MCP server that failed to
     * start ({@code fs:*}), a server tool whose name a plan cannot call, a tool whose secret is not
     * set, {@code llm_generate} without an LLM configured. Name (or {@code server:*}) to a sentence.
     */
    public Map<String, String> unavailable() {
        Map<String, String> all = new TreeMap<>(unavailable);
        setup.resolvers().forEach(resolver -> all.putAll(resolver.unavailable()));
        return all;
    }

    /** The secrets the tools read, name to value: give them to the VM ({@code builder.secrets(...)}) so they are redacted. */
    public Map<String, String> secretsUsed() {
        return setup.secretsUsed();
    }

    /** A condition evaluator (for {@code condition_prompt}) a provider offers, if any. */
    public Optional<ConditionEvaluator> conditionEvaluator() {
        return Optional.ofNullable(conditions);
    }

    /** The setup the providers were given. */
    public ToolSetup setup() {
        return setup;
    }

    /** Stops what the providers started (MCP servers) and closes the tool jars. */
    @Override
    public void close() {
        setup.close();
    }
}
