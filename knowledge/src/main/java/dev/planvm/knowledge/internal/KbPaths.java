package dev.planvm.knowledge.internal;

import java.nio.file.Path;

/** The layout of a knowledge base directory: {@code kb.json}, {@code index/} (chunks) and {@code graph/}. */
public final class KbPaths {

    private KbPaths() {}

    public static Path manifest(Path kbDir) {
        return kbDir.resolve(Manifest.FILE);
    }

    public static Path index(Path kbDir) {
        return kbDir.resolve("index");
    }

    public static Path graph(Path kbDir) {
        return kbDir.resolve("graph");
    }
}
