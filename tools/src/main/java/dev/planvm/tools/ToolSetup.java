package dev.planvm.tools;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link ToolProvider} is given to set its tools up: the environment, its sections of the
 * tools configuration ({@code planvm.json}), the directory relative paths in it start from, the
 * secrets it may read, and where to register what must be closed when the tools are no longer
 * needed (a server process, an index). A provider that finds a problem in its section reports it
 * with {@link #problem(String, String)} (a JSON pointer into the configuration file and a sentence),
 * so every problem of a configuration is reported at once.
 *
 * <p>One setup serves one VM (or one CLI command); {@link #close()} closes what the providers
 * registered, last registered first. Thread-safe.
 */
public final class ToolSetup implements AutoCloseable {

    /** A problem in the tools configuration: where it is (a JSON pointer into the file) and what is wrong. */
    public record Problem(String pointer, String message) {
        public Problem {
            Objects.requireNonNull(pointer, "pointer");
            Objects.requireNonNull(message, "message");
        }
    }

    private final Map<String, String> environment;
    private final Map<String, JsonNode> config;
    private final Path baseDirectory;
    private final Map<String, String> secrets;
    private final Map<String, String> secretsUsed = new LinkedHashMap<>();
    private final List<Problem> problems = new ArrayList<>();
    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();
    private final List<ToolResolver> resolvers = new ArrayList<>();

    /**
     * @param environment   environment variables (providers never read {@code System.getenv} themselves)
     * @param config        top-level sections of the tools configuration, by key
     * @param baseDirectory where relative paths of the configuration start (the file's directory)
     * @param secrets       secret values given explicitly (e.g. {@code --secret}), by name; a secret not
     *                      given here is read from the environment variable of the same name
     */
    public ToolSetup(
            Map<String, String> environment,
            Map<String, JsonNode> config,
            Path baseDirectory,
            Map<String, String> secrets) {
        this.environment = Map.copyOf(environment);
        this.config = Map.copyOf(config);
        this.baseDirectory = Objects.requireNonNull(baseDirectory, "baseDirectory");
        this.secrets = Map.copyOf(secrets);
    }

    /** A setup with no configuration file: only the environment. */
    public static ToolSetup of(Map<String, String> environment) {
        return new ToolSetup(environment, Map.of(), Path.of(""), Map.of());
    }

    public Map<String, String> environment() {
        return environment;
    }

    /** The section {@code key} of the configuration, when the file has one. */
    public Optional<JsonNode> section(String key) {
        return Optional.ofNullable(config.get(key));
    }

    public Path baseDirectory() {
        return baseDirectory;
    }

    /** {@code path} as the configuration means it: relative paths start at {@link #baseDirectory()}. */
    public Path resolve(String path) {
        return baseDirectory.resolve(path);
    }

    /**
     * The value of secret {@code name} (given explicitly, else the environment variable), recorded in
     * {@link #secretsUsed()} so that it is redacted wherever planvm writes things down.
     */
    public synchronized Optional<String> secret(String name) {
        String value = secrets.containsKey(name) ? secrets.get(name) : environment.get(name);
        if (value != null) {
            secretsUsed.put(name, value);
        }
        return Optional.ofNullable(value);
    }

    /** The secrets providers read, name to value: the VM adds them to its redactor. */
    public synchronized Map<String, String> secretsUsed() {
        return Map.copyOf(secretsUsed);
    }

    /** Reports a problem in the configuration; the configuration is refused once every provider has looked. */
    public synchronized void problem(String pointer, String message) {
        problems.add(new Problem(pointer, message));
    }

    public synchronized List<Problem> problems() {
        return List.copyOf(problems);
    }

    /** Offers tools that are set up on first use (see {@link ToolResolver}), besides those a provider returns. */
    public synchronized void resolveWith(ToolResolver resolver) {
        resolvers.add(Objects.requireNonNull(resolver, "resolver"));
    }

    /** The resolvers providers registered, in order. */
    public synchronized List<ToolResolver> resolvers() {
        return List.copyOf(resolvers);
    }

    /** Registers something to close with {@link #close()} (a server connection, an open index). */
    public synchronized <T extends AutoCloseable> T closeWith(T resource) {
        closeables.push(Objects.requireNonNull(resource, "resource"));
        return resource;
    }

    /** Closes what was registered, last first; a failure to close one does not stop the others. */
    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            toClose = new ArrayList<>(closeables);
            closeables.clear();
        }
        RuntimeException first = null;
        for (AutoCloseable resource : toClose) {
            try {
                resource.close();
            } catch (Exception e) {
                if (first == null) {
                    first = new IllegalStateException("cannot close " + resource + ": " + e.getMessage(), e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
