package dev.planvm.knowledge.spi;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What an indexing run did.
 *
 * @param kb             the knowledge base's name
 * @param added          sources indexed for the first time
 * @param changed        sources whose content (or chunking settings) changed, re-chunked
 * @param unchanged      how many sources were left as they were
 * @param removed        sources that are gone from the paths indexed, removed with their chunks
 * @param failures       files that could not be indexed (their earlier version, if any, is kept)
 * @param warnings       sentences about documents cut at a limit, and the like
 * @param chunksEmbedded chunks whose text went through the embedder in this run
 * @param chunksReused   chunks of added or changed files whose vector was reused (same text as before)
 * @param chunksTotal    chunks in the knowledge base after the run
 * @param graph          what the graph phase did, when it ran
 * @param elapsed        how long the run took
 */
public record IndexReport(
        String kb,
        List<String> added,
        List<String> changed,
        int unchanged,
        List<String> removed,
        List<Problem> failures,
        List<String> warnings,
        int chunksEmbedded,
        int chunksReused,
        int chunksTotal,
        Optional<GraphReport> graph,
        Duration elapsed) {

    public IndexReport {
        added = List.copyOf(added);
        changed = List.copyOf(changed);
        removed = List.copyOf(removed);
        failures = List.copyOf(failures);
        warnings = List.copyOf(warnings);
    }

    /** Something that went wrong with one source (a file path or a chunk id) and why. */
    public record Problem(String source, String message) {
        @Override
        public String toString() {
            return source + ": " + message;
        }
    }

    /**
     * What the graph phase did.
     *
     * @param llmCalls        extraction calls made in this run
     * @param chunksPending   chunks still without an extraction (over the budget, or failed): the next run does them
     * @param failures        chunks whose extraction failed, and why
     * @param entities        entities in the graph after the run
     * @param relationships   relationships in the graph after the run
     * @param dropped         relationships dropped because an endpoint named no entity
     * @param entitiesEmbedded entity descriptions embedded in this run (the others reused their vectors)
     */
    public record GraphReport(
            int llmCalls,
            int chunksPending,
            List<Problem> failures,
            int entities,
            int relationships,
            int dropped,
            int entitiesEmbedded) {
        public GraphReport {
            failures = List.copyOf(failures);
        }
    }

    /** One line for a terminal: {@code docs: 3 added, 1 changed, 12 unchanged, 0 removed; 57 chunks embedded, ...}. */
    public String summary() {
        StringBuilder line = new StringBuilder(kb)
                .append(": ")
                .append(added.size())
                .append(" added, ")
                .append(changed.size())
                .append(" changed, ")
                .append(unchanged)
                .append(" unchanged, ")
                .append(removed.size())
                .append(" removed");
        if (!failures.isEmpty()) {
            line.append(", ").append(failures.size()).append(" failed");
        }
        line.append("; ")
                .append(chunksEmbedded)
                .append(" chunks embedded, ")
                .append(chunksReused)
                .append(" reused, ")
                .append(chunksTotal)
                .append(" in all");
        graph.ifPresent(g -> line.append("; graph: ")
                .append(g.entities())
                .append(" entities, ")
                .append(g.relationships())
                .append(" relationships, ")
                .append(g.llmCalls())
                .append(" LLM calls")
                .append(g.chunksPending() > 0 ? ", " + g.chunksPending() + " chunks pending" : ""));
        line.append(" (").append(elapsed.toMillis()).append(" ms)");
        return line.toString();
    }
}
