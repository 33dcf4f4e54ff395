package dev.planvm.knowledge;

import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.knowledge.spi.LlmJson;

/**
 * How {@link Indexer} builds a knowledge base: chunk size and overlap, the limits that keep hostile
 * documents from exhausting memory, the HNSW graph's settings, and the knowledge-graph extraction.
 * Start from {@link #defaults()} and change what you need with the {@code with...} methods.
 *
 * @param chunkTokens      most tokens per chunk (the embedding model's tokenizer), 16–2048
 * @param overlapTokens    tokens a chunk repeats from the end of the previous one, 0 to half a chunk
 * @param maxFileBytes     a larger file is skipped and reported
 * @param maxTextChars     a document's text is cut here (reported as a warning)
 * @param maxPdfPages      a PDF is read up to this page (reported as a warning)
 * @param maxChunksPerFile a file's chunks stop here (reported as a warning)
 * @param maxFiles         scanning stops after this many files (reported as a warning)
 * @param hnswM            HNSW neighbours per node (Lucene's {@code maxConn})
 * @param hnswBeamWidth    HNSW candidates while building (Lucene's {@code beamWidth})
 * @param graphLlm         the LLM that extracts the knowledge graph, or null for no graph
 * @param maxLlmCalls      most extraction calls in one run; chunks left over are extracted by the next run
 */
public record IndexSettings(
        int chunkTokens,
        int overlapTokens,
        long maxFileBytes,
        int maxTextChars,
        int maxPdfPages,
        int maxChunksPerFile,
        int maxFiles,
        int hnswM,
        int hnswBeamWidth,
        LlmJson graphLlm,
        int maxLlmCalls) {

    public static final int DEFAULT_CHUNK_TOKENS = 256;
    public static final int DEFAULT_OVERLAP_TOKENS = 32;
    public static final int DEFAULT_HNSW_M = 16;
    public static final int DEFAULT_HNSW_BEAM_WIDTH = 100;
    public static final int DEFAULT_MAX_LLM_CALLS = 1000;

    public IndexSettings {
        check(chunkTokens >= 16 && chunkTokens <= 2048, "the chunk size must be 16 to 2048 tokens, not " + chunkTokens);
        check(
                overlapTokens >= 0 && overlapTokens <= chunkTokens / 2,
                "the overlap must be 0 to half the chunk size (" + chunkTokens / 2 + " tokens), not " + overlapTokens);
        check(maxFileBytes > 0, "the file size limit must be positive");
        check(maxTextChars > 0, "the text size limit must be positive");
        check(maxPdfPages > 0, "the PDF page limit must be positive");
        check(maxChunksPerFile > 0, "the chunks-per-file limit must be positive");
        check(maxFiles > 0, "the file count limit must be positive");
        check(hnswM >= 2 && hnswM <= 512, "HNSW M must be 2 to 512, not " + hnswM);
        check(
                hnswBeamWidth >= 2 && hnswBeamWidth <= 3200,
                "the HNSW beam width must be 2 to 3200, not " + hnswBeamWidth);
        check(maxLlmCalls >= 0, "the LLM call budget must not be negative");
    }

    /** 256-token chunks overlapping by 32; files up to 20 MiB, texts up to 5 million characters, 2,000 PDF pages, 5,000 chunks per file, 100,000 files; HNSW M 16, beam 100; no graph. */
    public static IndexSettings defaults() {
        return new IndexSettings(
                DEFAULT_CHUNK_TOKENS,
                DEFAULT_OVERLAP_TOKENS,
                20L << 20,
                5_000_000,
                2_000,
                5_000,
                100_000,
                DEFAULT_HNSW_M,
                DEFAULT_HNSW_BEAM_WIDTH,
                null,
                DEFAULT_MAX_LLM_CALLS);
    }

    public IndexSettings withChunking(int tokens, int overlap) {
        return new IndexSettings(
                tokens,
                overlap,
                maxFileBytes,
                maxTextChars,
                maxPdfPages,
                maxChunksPerFile,
                maxFiles,
                hnswM,
                hnswBeamWidth,
                graphLlm,
                maxLlmCalls);
    }

    public IndexSettings withLimits(long fileBytes, int textChars, int pdfPages, int chunksPerFile, int files) {
        return new IndexSettings(
                chunkTokens,
                overlapTokens,
                fileBytes,
                textChars,
                pdfPages,
                chunksPerFile,
                files,
                hnswM,
                hnswBeamWidth,
                graphLlm,
                maxLlmCalls);
    }

    public IndexSettings withHnsw(int m, int beamWidth) {
        return new IndexSettings(
                chunkTokens,
                overlapTokens,
                maxFileBytes,
                maxTextChars,
                maxPdfPages,
                maxChunksPerFile,
                maxFiles,
                m,
                beamWidth,
                graphLlm,
                maxLlmCalls);
    }

    /** Extracts a knowledge graph with {@code llm}, at most {@code maxCalls} calls per run. */
    public IndexSettings withGraph(LlmJson llm, int maxCalls) {
        return new IndexSettings(
                chunkTokens,
                overlapTokens,
                maxFileBytes,
                maxTextChars,
                maxPdfPages,
                maxChunksPerFile,
                maxFiles,
                hnswM,
                hnswBeamWidth,
                llm,
                maxCalls);
    }

    /** What a file record keeps of the chunking, so that other settings re-chunk it. */
    String chunkingSignature() {
        return "chunker/2 tokens=" + chunkTokens + " overlap=" + overlapTokens + " text=" + maxTextChars + " pages="
                + maxPdfPages + " chunks=" + maxChunksPerFile;
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new KnowledgeException(message);
        }
    }
}
