package dev.planvm.instructions;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the StackVM corpus: {@code -Dplanvm.corpus}, else {@code plans/compat/stackvm} of this repository. */
final class Corpus {
    private Corpus() {}

    static Path directory() {
        String configured = System.getProperty("planvm.corpus", System.getenv("PLANVM_CORPUS"));
        if (configured != null) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("plans/compat/stackvm");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("StackVM corpus not found: expected plans/compat/stackvm in the "
                + "repository, or set -Dplanvm.corpus / PLANVM_CORPUS");
    }
}
