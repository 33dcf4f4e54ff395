package dev.planvm.tools.config;

import dev.planvm.tools.ToolProvider;
import dev.planvm.tools.ToolSetup.Problem;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Tool jars: the jars named by {@code toolPaths} (a directory stands for the {@code *.jar} files in
 * it, sorted by name), loaded by one class loader whose {@link ToolProvider}s are found by
 * {@link ServiceLoader}. One entry method: {@link #load}.
 */
final class ToolJars {

    /** The most jars one configuration may load. */
    static final int MAX_JARS = 200;

    /**
     * @param loader    the class loader over the jars (to close with the tools), or {@code null} when there are none
     * @param providers the providers the jars declare
     * @param problems  paths that do not exist, are not jars, providers that cannot be loaded
     */
    record Loaded(URLClassLoader loader, List<ToolProvider> providers, List<Problem> problems) {
        Loaded {
            providers = List.copyOf(providers);
            problems = List.copyOf(problems);
        }
    }

    /** A path to load and where it was named (a JSON pointer into the file, or "" for the command line). */
    record Entry(Path path, String pointer, String written) {}

    private ToolJars() {}

    static Loaded load(List<Entry> entries, ClassLoader parent) {
        List<Problem> problems = new ArrayList<>();
        List<URL> urls = new ArrayList<>();
        for (Entry entry : entries) {
            for (Path jar : jars(entry, problems)) {
                if (urls.size() >= MAX_JARS) {
                    problems.add(new Problem(entry.pointer(), "more than " + MAX_JARS + " tool jars; name fewer"));
                    break;
                }
                try {
                    urls.add(jar.toUri().toURL());
                } catch (MalformedURLException e) {
                    problems.add(new Problem(entry.pointer(), "cannot use tool jar '" + jar + "': " + e.getMessage()));
                }
            }
        }
        if (urls.isEmpty()) {
            return new Loaded(null, List.of(), problems);
        }
        URLClassLoader loader = new URLClassLoader("planvm-tool-jars", urls.toArray(URL[]::new), parent);
        List<ToolProvider> providers = new ArrayList<>();
        Iterator<ToolProvider> found =
                ServiceLoader.load(ToolProvider.class, loader).iterator();
        while (true) {
            try {
                if (!found.hasNext()) {
                    break;
                }
                ToolProvider provider = found.next();
                if (provider.getClass().getClassLoader() == loader) {
                    providers.add(provider);
                }
            } catch (ServiceConfigurationError | LinkageError e) {
                problems.add(
                        new Problem("", "a tool jar declares a ToolProvider that cannot be loaded: " + e.getMessage()));
            }
        }
        return new Loaded(loader, providers, problems);
    }

    private static List<Path> jars(Entry entry, List<Problem> problems) {
        Path path = entry.path();
        if (Files.isDirectory(path)) {
            List<Path> jars = new ArrayList<>();
            try (DirectoryStream<Path> children = Files.newDirectoryStream(path, "*.jar")) {
                children.forEach(jars::add);
            } catch (IOException e) {
                problems.add(new Problem(
                        entry.pointer(),
                        "cannot list the tools directory '" + entry.written() + "': " + e.getMessage()));
            }
            jars.sort(null);
            return jars;
        }
        if (!Files.exists(path)) {
            problems.add(new Problem(entry.pointer(), "the tools path '" + entry.written() + "' does not exist"));
            return List.of();
        }
        if (!path.getFileName().toString().endsWith(".jar")) {
            problems.add(new Problem(
                    entry.pointer(),
                    "the tools path '" + entry.written() + "' is neither a directory nor a .jar file"));
            return List.of();
        }
        return List.of(path);
    }
}
