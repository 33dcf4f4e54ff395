package dev.planvm.knowledge.internal;

/**
 * What was indexed of one source file.
 *
 * @param source    the file's path as recorded (relative to the indexing base, {@code /}-separated)
 * @param hash      SHA-256 of its bytes
 * @param bytes     its size
 * @param chunks    how many chunks it gave
 * @param type      its document type
 * @param title     its title
 * @param signature the chunking settings it was split with (a change re-chunks it)
 * @param truncated whether its text or chunks were cut at a limit
 */
public record FileRecord(
        String source,
        String hash,
        long bytes,
        int chunks,
        String type,
        String title,
        String signature,
        boolean truncated) {}
