package dev.planvm.knowledge.spi;

import java.util.List;

/**
 * Turns texts into vectors. A knowledge base records the {@link #model()} that built it and refuses
 * to be queried or extended with another one. Implementations must be thread-safe: the tools embed
 * queries concurrently.
 *
 * @see dev.planvm.knowledge.Embedders
 */
public interface Embedder extends AutoCloseable {

    /**
     * The model's name as the knowledge base records it, e.g. {@code all-MiniLM-L6-v2-q} or
     * {@code openai-compatible/text-embedding-3-small}. Two embedders with the same name must give
     * comparable vectors.
     */
    String model();

    /**
     * One vector per text, in order, all of the same dimension.
     *
     * @throws KnowledgeException when the texts cannot be embedded (an endpoint failed, say)
     */
    List<float[]> embed(List<String> texts);

    /** How many texts one {@link #embed} call should get at most; the indexer sends batches this big. */
    default int batchSize() {
        return 32;
    }

    /** Releases what the embedder holds; the default holds nothing. */
    @Override
    default void close() {}
}
