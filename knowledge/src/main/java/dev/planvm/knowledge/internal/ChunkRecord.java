package dev.planvm.knowledge.internal;

/**
 * One chunk to store.
 *
 * @param id      {@code source#ordinal}
 * @param hash    SHA-256 of the text that was embedded (the heading path and the content), to reuse its vector
 */
public record ChunkRecord(
        String id,
        String source,
        int ordinal,
        String title,
        String heading,
        int start,
        int end,
        int tokens,
        String content,
        String hash) {}
