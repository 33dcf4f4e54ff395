package dev.planvm.knowledge.internal;

import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The fields of the chunk index. It holds three kinds of documents, told apart by {@link #KIND}: a
 * {@code chunk} (text, metadata, vector), a {@code file} (what was indexed of one source file, for
 * incremental re-indexing) and an {@code extraction} (the LLM's entities and relationships for one
 * chunk, kept so that a re-index asks the LLM again only for new chunks).
 */
final class ChunkFields {

    static final String KIND = "kind";
    static final String CHUNK = "chunk";
    static final String FILE = "file";
    static final String EXTRACTION = "extraction";

    static final String SOURCE = "source";
    static final String ID = "id";
    static final String HASH = "hash";
    static final String ORDINAL = "ordinal";
    static final String START = "start";
    static final String END = "end";
    static final String TOKENS = "tokens";
    static final String TITLE = "title";
    static final String HEADING = "heading";
    static final String CONTENT = "content";
    static final String TYPE = "type";
    static final String BYTES = "bytes";
    static final String CHUNKS = "chunks";
    static final String SIGNATURE = "signature";
    static final String TRUNCATED = "truncated";
    static final String JSON = "json";
    static final String VECTOR = "vector";

    /** Vectors are stored unit length, so the dot product is the cosine. */
    static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

    private ChunkFields() {}

    /** Lucene's score for {@link #SIMILARITY} ({@code (1 + dot) / 2}) back to the cosine similarity. */
    static double cosine(float score) {
        return Math.round((2.0 * score - 1.0) * 10_000) / 10_000.0;
    }
}
