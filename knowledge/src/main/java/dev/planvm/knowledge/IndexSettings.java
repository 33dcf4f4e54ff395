package dev.planvm.knowledge;

import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.knowledge.spi.LlmJson;

/**
 * How {@link Indexer} builds a knowledge base: chunk size and overlap, the limits that keep hostile
 * documents from exhausting memory, the HNSW graph's settings, and the knowledge-graph extraction.
 * Start from {@link #builder()} and set what you need.
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

    /** A builder starting from {@link #defaults()}: set what differs, then {@link Builder#build()}. */
    public static Builder builder() {
        return defaults().toBuilder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Settings changed a group at a time: a record of 11 components gets one builder rather than four withers each
     * repeating every argument. The settings are checked together when built (the overlap against the chunk size),
     * so no order of setters meets a half-changed, invalid value; a {@link KnowledgeException} says what is wrong.
     */
    public static final class Builder {
        private int chunkTokens;
        private int overlapTokens;
        private long maxFileBytes;
        private int maxTextChars;
        private int maxPdfPages;
        private int maxChunksPerFile;
        private int maxFiles;
        private int hnswM;
        private int hnswBeamWidth;
        private LlmJson graphLlm;
        private int maxLlmCalls;

        private Builder(IndexSettings from) {
            this.chunkTokens = from.chunkTokens;
            this.overlapTokens = from.overlapTokens;
            this.maxFileBytes = from.maxFileBytes;
            this.maxTextChars = from.maxTextChars;
            this.maxPdfPages = from.maxPdfPages;
            this.maxChunksPerFile = from.maxChunksPerFile;
            this.maxFiles = from.maxFiles;
            this.hnswM = from.hnswM;
            this.hnswBeamWidth = from.hnswBeamWidth;
            this.graphLlm = from.graphLlm;
            this.maxLlmCalls = from.maxLlmCalls;
        }

        /** Most tokens per chunk, and tokens a chunk repeats from the end of the previous one. */
        public Builder chunking(int tokens, int overlap) {
            this.chunkTokens = tokens;
            this.overlapTokens = overlap;
            return this;
        }

        /** The limits that keep hostile documents from exhausting memory. */
        public Builder limits(long fileBytes, int textChars, int pdfPages, int chunksPerFile, int files) {
            this.maxFileBytes = fileBytes;
            this.maxTextChars = textChars;
            this.maxPdfPages = pdfPages;
            this.maxChunksPerFile = chunksPerFile;
            this.maxFiles = files;
            return this;
        }

        /** The HNSW graph's neighbours per node and candidates while building. */
        public Builder hnsw(int m, int beamWidth) {
            this.hnswM = m;
            this.hnswBeamWidth = beamWidth;
            return this;
        }

        /** Extracts a knowledge graph with {@code llm}, at most {@code maxCalls} calls per run. */
        public Builder graph(LlmJson llm, int maxCalls) {
            this.graphLlm = llm;
            this.maxLlmCalls = maxCalls;
            return this;
        }

        /** The settings, checked. */
        public IndexSettings build() {
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
                    graphLlm,
                    maxLlmCalls);
        }
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
