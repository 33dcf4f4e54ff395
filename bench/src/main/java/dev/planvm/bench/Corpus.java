package dev.planvm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The StackVM plan corpus ({@code plan-*.json}), located in this order:
 * <ol>
 *   <li>system property {@code planvm.corpus};</li>
 *   <li>environment variable {@code PLANVM_CORPUS};</li>
 *   <li>{@code plans/compat/stackvm} of the repository, which is searched
 *       for upwards from the working directory and from the location of this class
 *       (e.g. {@code bench/target/benchmarks.jar}).</li>
 * </ol>
 */
final class Corpus {

    static final String PROPERTY = "planvm.corpus";
    static final String ENV = "PLANVM_CORPUS";
    private static final String RELATIVE_TO_REPO = "plans/compat/stackvm";

    /** One corpus file, read into memory. */
    record Entry(String name, String json) {}

    private Corpus() {}

    static Path directory() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENV);
        }
        if (configured != null && !configured.isBlank()) {
            Path dir = Path.of(configured).toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException(
                        "plan corpus directory does not exist: " + dir + " (from -D" + PROPERTY + " / $" + ENV + ")");
            }
            return dir;
        }
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of(System.getProperty("user.dir")));
        try {
            starts.add(Path.of(Corpus.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()));
        } catch (Exception | Error ignored) {
            // no usable code source; the working directory alone has to do
        }
        for (Path start : starts) {
            for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
                if (isRepoRoot(p)) {
                    Path dir = p.resolve(RELATIVE_TO_REPO).normalize();
                    if (Files.isDirectory(dir)) {
                        return dir;
                    }
                }
            }
        }
        throw new IllegalStateException("plan corpus not found: set -D" + PROPERTY + "=<dir> or $" + ENV
                + ", or place it at <repo>/" + RELATIVE_TO_REPO);
    }

    private static boolean isRepoRoot(Path p) {
        return Files.isRegularFile(p.resolve("pom.xml"))
                && Files.isDirectory(p.resolve("bench"))
                && Files.isDirectory(p.resolve("instructions"));
    }

    /** Every {@code plan-*.json} in {@link #directory()}, sorted by file name. */
    static List<Entry> load() {
        Path dir = directory();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> {
                        String n = f.getFileName().toString();
                        return n.startsWith("plan-") && n.endsWith(".json") && Files.isRegularFile(f);
                    })
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("no plan-*.json files in " + dir);
        }
        List<Entry> entries = new ArrayList<>(files.size());
        for (Path f : files) {
            try {
                entries.add(new Entry(f.getFileName().toString(), Files.readString(f, StandardCharsets.UTF_8)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + f, e);
            }
        }
        return entries;
    }
}
