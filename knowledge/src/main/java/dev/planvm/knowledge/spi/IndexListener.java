package dev.planvm.knowledge.spi;

/**
 * Follows an indexing run, e.g. to draw a progress bar. Every method has a no-op default; a listener that
 * throws is logged and ignored, it never stops the run. Called from the indexing thread.
 */
public interface IndexListener {

    /** The phases of a run, in order. */
    enum Phase {
        /** Finding the files under the paths given ({@code total} unknown: -1). */
        SCAN,
        /** Reading, chunking and embedding the new and changed files ({@code total}: files to read). */
        EMBED,
        /** Extracting entities and relationships from chunks that have none yet ({@code total}: such chunks). */
        GRAPH
    }

    /** A phase starts; {@code total} is how many steps it will take, -1 when unknown. */
    default void started(Phase phase, int total) {}

    /** A step of {@code phase} is done: {@code done} steps so far, {@code item} names the last (a path or a chunk id). */
    default void advanced(Phase phase, int done, String item) {}

    /** A phase ends. */
    default void finished(Phase phase) {}

    /** A listener that does nothing. */
    static IndexListener none() {
        return new IndexListener() {};
    }
}
