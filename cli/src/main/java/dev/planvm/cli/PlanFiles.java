package dev.planvm.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Command-line PATH arguments to plan files: a file stays as given; a directory stands for its
 * {@code *.json} files (sorted, not recursive), leaving out the companions of a plan
 * ({@code X.cassette.json}, {@code X.expected.json}).
 */
final class PlanFiles {

    private PlanFiles() {
    }

    static List<String> expand(List<String> paths) {
        List<String> files = new ArrayList<>();
        for (String path : paths) {
            Path p = Path.of(path);
            if (!path.equals("-") && Files.isDirectory(p)) {
                try (Stream<Path> entries = Files.list(p)) {
                    entries.filter(PlanFiles::isPlanFile).sorted().forEach(f -> files.add(f.toString()));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot list " + path, e);
                }
            } else {
                files.add(path);
            }
        }
        return files;
    }

    static boolean isPlanFile(Path file) {
        String name = file.getFileName().toString();
        return name.endsWith(".json") && !name.endsWith(".cassette.json") && !name.endsWith(".expected.json")
                && Files.isRegularFile(file);
    }
}
