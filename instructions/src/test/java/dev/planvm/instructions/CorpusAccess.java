package dev.planvm.instructions;

import java.nio.file.Path;

/** {@link Corpus} for tests of other packages. */
public final class CorpusAccess {
    private CorpusAccess() {}

    public static Path directory() {
        return Corpus.directory();
    }
}
