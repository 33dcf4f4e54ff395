package dev.planvm.tools.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.json.JsonPointers;
import dev.planvm.json.Spelling;
import dev.planvm.tools.ConditionEvaluator;
import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup;
import dev.planvm.tools.ToolSetup.Problem;
import java.io.File;
import java.io.IOException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The tools configuration ({@code planvm.json}): where it is ({@link #locate}) and what it declares
 * ({@link #load}). The file is a JSON object whose top-level keys are claimed by tool providers
 * ({@link ToolProvider#configSections()}: {@code mcpServers}, {@code httpTools}, {@code openapi}) or
 * read here ({@code toolPaths}: jars whose providers join the others; {@code approveTools}: globs of the
 * tools whose calls need a reviewer's approval). Loading checks, in order:
 * strict JSON (bounded size and depth, no duplicate keys, nothing after the document), unknown
 * top-level keys (with a did-you-mean), each section against its provider's JSON Schema, then each
 * provider's own checks, then tool names offered twice. Every problem is collected and reported at
 * once in a {@link ToolsConfigException}.
 */
public final class ToolsConfig {

    /** The file looked for in the working directory. */
    public static final String FILE_NAME = "planvm.json";
    /** The environment variable naming the configuration file. */
    public static final String CONFIG_VARIABLE = "PLANVM_CONFIG";
    /** The environment variable listing extra tool jars or directories ({@link File#pathSeparator}-separated). */
    public static final String TOOLS_PATH_VARIABLE = "PLANVM_TOOLS_PATH";
    /** The top-level key the loader reads itself. */
    public static final String TOOL_PATHS = "toolPaths";
    /** The top-level key listing the tools whose calls need a reviewer's approval (globs). */
    public static final String APPROVE_TOOLS = "approveTools";
    /** The top-level key listing directories of plan tools (plans that name themselves). */
    public static final String PLAN_TOOLS = "planTools";

    private ToolsConfig() {}

    /**
     * The configuration file to use: the flag ({@code --config FILE}) when given, else
     * {@code PLANVM_CONFIG}, else {@code planvm.json} in the working directory when it exists, else none.
     * A file named by the flag or the variable is returned even when it does not exist (loading it
     * then says so).
     */
    public static Optional<Path> locate(Path workingDir, Map<String, String> env, Path flagOrNull) {
        if (flagOrNull != null) {
            return Optional.of(workingDir.resolve(flagOrNull));
        }
        String variable = env.get(CONFIG_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            return Optional.of(workingDir.resolve(variable.strip()));
        }
        Path here = workingDir.resolve(FILE_NAME);
        return Files.isRegularFile(here) ? Optional.of(here) : Optional.empty();
    }

    /** The paths {@code PLANVM_TOOLS_PATH} lists, relative ones against {@code workingDir}. */
    public static List<Path> toolsPathFromEnvironment(Path workingDir, Map<String, String> env) {
        String value = env.get(TOOLS_PATH_VARIABLE);
        List<Path> paths = new ArrayList<>();
        if (value != null) {
            for (String part : value.split(File.pathSeparator)) {
                if (!part.isBlank()) {
                    paths.add(workingDir.resolve(part.strip()));
                }
            }
        }
        return paths;
    }

    /** The tool providers on the class path of this library ({@link ServiceLoader}), fresh instances. */
    public static List<ToolProvider> classPathProviders() {
        List<ToolProvider> providers = new ArrayList<>();
        ServiceLoader.load(ToolProvider.class, ToolsConfig.class.getClassLoader())
                .forEach(providers::add);
        return providers;
    }

    /** {@link #load(Path, Map, Map, List, List)} with no extra tool paths. */
    public static LoadedTools load(
            Path file, Map<String, String> env, Map<String, String> secrets, List<ToolProvider> providers) {
        return load(file, env, secrets, providers, List.of());
    }

    /**
     * Loads a configuration and sets its tools up.
     *
     * @param file           the configuration file, or {@code null} for none (the providers then see only the environment)
     * @param env            environment variables (providers never read {@code System.getenv} themselves)
     * @param secrets        secret values given explicitly ({@code --secret}), by name
     * @param providers      the providers to ask (usually {@link #classPathProviders()}); tool jars add theirs
     * @param extraToolPaths jars or directories from {@code --tools-path} and {@code PLANVM_TOOLS_PATH}
     * @throws ToolsConfigException listing every problem, when the configuration cannot be used
     */
    public static LoadedTools load(
            Path file,
            Map<String, String> env,
            Map<String, String> secrets,
            List<ToolProvider> providers,
            List<Path> extraToolPaths) {
        return load(file, env, secrets, providers, extraToolPaths, Map.of());
    }

    /**
     * {@link #load(Path, Map, Map, List, List)} with sections given on the command line: each key of
     * {@code overrides} sets that section, or, when the file has the section and both are objects,
     * sets those keys of it (so {@code --kb docs} picks the knowledge base and keeps the file's other
     * knowledge settings); when both are arrays, adds its elements ({@code --plan-tools DIR}). Overrides are checked like the file's sections.
     */
    public static LoadedTools load(
            Path file,
            Map<String, String> env,
            Map<String, String> secrets,
            List<ToolProvider> providers,
            List<Path> extraToolPaths,
            Map<String, JsonNode> overrides) {
        Path absolute = file == null ? null : file.toAbsolutePath().normalize();
        return new Loading(absolute, env, secrets).run(providers, extraToolPaths, overrides);
    }

    /** One load: collects problems across the phases. */
    private static final class Loading {
        private final Path file;
        private final Path baseDirectory;
        private final Map<String, String> env;
        private final Map<String, String> secrets;
        private final List<Problem> problems = new ArrayList<>();

        Loading(Path file, Map<String, String> env, Map<String, String> secrets) {
            this.file = file;
            this.baseDirectory = file == null ? Path.of("").toAbsolutePath() : file.getParent();
            this.env = Map.copyOf(env);
            this.secrets = Map.copyOf(secrets);
        }

        LoadedTools run(List<ToolProvider> given, List<Path> extraToolPaths, Map<String, JsonNode> overrides) {
            JsonNode root = overridden(root(), overrides);
            ToolJars.Loaded jars =
                    ToolJars.load(toolPathEntries(root, extraToolPaths), ToolsConfig.class.getClassLoader());
            problems.addAll(jars.problems());
            List<ToolProvider> providers = new ArrayList<>(given);
            providers.addAll(jars.providers());
            Map<String, JsonNode> sections = sections(root, providers);
            List<String> approveTools = approveTools(root);
            List<Path> planToolDirs = planToolDirs(root);
            if (!problems.isEmpty()) {
                closeQuietly(jars.loader());
                throw new ToolsConfigException(file, problems);
            }
            ToolSetup setup = new ToolSetup(env, sections, baseDirectory, secrets);
            if (jars.loader() != null) {
                setup.closeWith(jars.loader());
            }
            try {
                return offer(providers, setup, approveTools, planToolDirs);
            } catch (RuntimeException e) {
                setup.close();
                throw e;
            }
        }

        private static JsonNode overridden(JsonNode root, Map<String, JsonNode> overrides) {
            if (overrides.isEmpty() || !root.isObject()) {
                return root;
            }
            ObjectNode merged = ((ObjectNode) root).deepCopy();
            overrides.forEach((key, value) -> {
                JsonNode existing = merged.get(key);
                if (existing instanceof ObjectNode section && value.isObject()) {
                    section.setAll((ObjectNode) value.deepCopy());
                } else if (existing instanceof ArrayNode list && value.isArray()) {
                    list.addAll((ArrayNode) value.deepCopy());
                } else {
                    merged.set(key, value.deepCopy());
                }
            });
            return merged;
        }

        /** The document, or an empty object when there is no file; a located problem when unreadable. */
        private JsonNode root() {
            if (file == null) {
                return JsonNodeFactory.instance.objectNode();
            }
            try {
                JsonNode root = ConfigReader.read(file);
                if (!root.isObject()) {
                    problems.add(new Problem("", "the tools configuration must be a JSON object, not " + kind(root)));
                    return JsonNodeFactory.instance.objectNode();
                }
                return root;
            } catch (ConfigReader.Unreadable e) {
                throw new ToolsConfigException(file, List.of(new Problem("", e.getMessage())));
            }
        }

        private List<ToolJars.Entry> toolPathEntries(JsonNode root, List<Path> extra) {
            List<ToolJars.Entry> entries = new ArrayList<>();
            JsonNode paths = root.get(TOOL_PATHS);
            if (paths != null) {
                if (!paths.isArray()) {
                    problems.add(new Problem(
                            "/" + TOOL_PATHS,
                            "must be an array of paths (directories or .jar files), not " + kind(paths)));
                } else {
                    for (int i = 0; i < paths.size(); i++) {
                        JsonNode path = paths.get(i);
                        String pointer = "/" + TOOL_PATHS + "/" + i;
                        if (!path.isTextual() || path.asText().isBlank()) {
                            problems.add(new Problem(
                                    pointer, "must be a path (a directory or a .jar file), not " + kind(path)));
                        } else {
                            entries.add(
                                    new ToolJars.Entry(baseDirectory.resolve(path.asText()), pointer, path.asText()));
                        }
                    }
                }
            }
            for (Path path : extra) {
                entries.add(new ToolJars.Entry(path, "", path.toString()));
            }
            return entries;
        }

        /** The {@code planTools} directories, resolved against the file's directory. */
        private List<Path> planToolDirs(JsonNode root) {
            JsonNode dirs = root.get(PLAN_TOOLS);
            List<Path> list = new ArrayList<>();
            if (dirs == null) {
                return list;
            }
            if (!dirs.isArray()) {
                problems.add(new Problem(
                        "/" + PLAN_TOOLS, "must be an array of directories of plan tools, not " + kind(dirs)));
                return list;
            }
            for (int i = 0; i < dirs.size(); i++) {
                JsonNode dir = dirs.get(i);
                if (!dir.isTextual() || dir.asText().isBlank()) {
                    problems.add(new Problem(
                            "/" + PLAN_TOOLS + "/" + i, "must be a directory of plan tools, not " + kind(dir)));
                } else {
                    list.add(baseDirectory.resolve(dir.asText()));
                }
            }
            return list;
        }

        /** The {@code approveTools} globs; a value that is not an array of globs is a problem. */
        private List<String> approveTools(JsonNode root) {
            JsonNode globs = root.get(APPROVE_TOOLS);
            List<String> list = new ArrayList<>();
            if (globs == null) {
                return list;
            }
            if (!globs.isArray()) {
                problems.add(new Problem(
                        "/" + APPROVE_TOOLS,
                        "must be an array of tool name globs (e.g. [\"send_*\"]), not " + kind(globs)));
                return list;
            }
            for (int i = 0; i < globs.size(); i++) {
                JsonNode glob = globs.get(i);
                try {
                    if (!glob.isTextual()) {
                        throw new IllegalArgumentException("must be a tool name glob, not " + kind(glob));
                    }
                    dev.planvm.tools.approval.ApprovalRules.of(List.of(glob.asText()));
                    list.add(glob.asText());
                } catch (IllegalArgumentException e) {
                    problems.add(new Problem("/" + APPROVE_TOOLS + "/" + i, e.getMessage()));
                }
            }
            return list;
        }

        /** The claimed sections present in the file, each checked against its schema; unknown keys are problems. */
        private Map<String, JsonNode> sections(JsonNode root, List<ToolProvider> providers) {
            Map<String, JsonNode> schemas = new TreeMap<>();
            for (ToolProvider provider : providers) {
                provider.configSections().forEach((key, schema) -> {
                    if (schemas.putIfAbsent(key, schema) != null
                            || key.equals(TOOL_PATHS)
                            || key.equals(APPROVE_TOOLS)
                            || key.equals(PLAN_TOOLS)) {
                        problems.add(new Problem(
                                "",
                                "two tool providers claim the configuration key '" + key + "' ("
                                        + provider.getClass().getName() + " is the second)"));
                    }
                });
            }
            List<String> known = new ArrayList<>(schemas.keySet());
            known.add(TOOL_PATHS);
            known.add(APPROVE_TOOLS);
            known.add(PLAN_TOOLS);
            SectionCheck check = null; // made for the first section: a file without any needs no schema validator
            Map<String, JsonNode> sections = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> field : root.properties()) {
                String key = field.getKey();
                if (key.equals(TOOL_PATHS) || key.equals(APPROVE_TOOLS) || key.equals(PLAN_TOOLS)) {
                    continue;
                }
                JsonNode schema = schemas.get(key);
                if (schema == null) {
                    String hint = Spelling.closest(key, known)
                            .map(k -> " (did you mean '" + k + "'?)")
                            .orElse("");
                    problems.add(new Problem(
                            "/" + JsonPointers.escape(key),
                            "unknown key '" + key + "'" + hint + "; known keys: " + String.join(", ", known)));
                    continue;
                }
                if (check == null) {
                    check = new SectionCheck();
                }
                problems.addAll(check.check(key, field.getValue(), schema));
                sections.put(key, field.getValue());
            }
            return sections;
        }

        /** Asks every provider for its tools; their problems and duplicate names refuse the configuration. */
        private LoadedTools offer(
                List<ToolProvider> providers, ToolSetup setup, List<String> approveTools, List<Path> planToolDirs) {
            List<Tool> tools = new ArrayList<>();
            Map<String, String> unavailable = new TreeMap<>();
            ConditionEvaluator conditions = null;
            for (ToolProvider provider : providers) {
                try {
                    tools.addAll(provider.tools(setup));
                    unavailable.putAll(provider.unavailable(setup));
                    if (conditions == null) {
                        conditions = provider.conditionEvaluator(setup).orElse(null);
                    }
                } catch (RuntimeException e) {
                    problems.add(new Problem(
                            "",
                            "the tool provider " + provider.getClass().getName() + " failed: "
                                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
                }
            }
            problems.addAll(setup.problems());
            tools.forEach(tool -> unavailable.remove(tool.name())); // one provider offers what another only names
            Map<String, String> aliases = new TreeMap<>();
            List<Tool> kept = names(tools, aliases, unavailable);
            if (!problems.isEmpty()) {
                setup.close();
                throw new ToolsConfigException(file, problems);
            }
            return new LoadedTools(file, kept, aliases, unavailable, conditions, setup, approveTools, planToolDirs);
        }

        /** Tools by unique name: two real tools with one name are a problem; an alias yields to a real tool. */
        private List<Tool> names(List<Tool> tools, Map<String, String> aliases, Map<String, String> unavailable) {
            Map<String, Tool> real = new LinkedHashMap<>();
            for (Tool tool : tools) {
                if (tool instanceof ToolAlias) {
                    continue;
                }
                Tool previous = real.putIfAbsent(tool.name(), tool);
                if (previous != null && previous != tool) {
                    problems.add(new Problem("", "two tools are named '" + tool.name() + "'; rename one of them"));
                }
            }
            List<Tool> kept = new ArrayList<>(real.values());
            for (Tool tool : tools) {
                if (tool instanceof ToolAlias alias) {
                    if (real.containsKey(alias.name()) || aliases.containsKey(alias.name())) {
                        unavailable.put(
                                alias.name(),
                                "not a short name of " + alias.aliasOf()
                                        + ": another tool has this name (call it by its full name)");
                    } else {
                        aliases.put(alias.name(), alias.aliasOf());
                        kept.add(alias);
                    }
                }
            }
            return kept;
        }

        private static void closeQuietly(URLClassLoader loader) {
            if (loader != null) {
                try {
                    loader.close();
                } catch (IOException ignored) {
                    // nothing was loaded from it that needs it
                }
            }
        }
    }

    static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase();
        };
    }
}
