package dev.planvm.knowledge;

import dev.planvm.knowledge.internal.LocalEmbedder;
import dev.planvm.knowledge.internal.OpenAiEmbedder;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.util.Optional;

/**
 * The embedders planvm ships: the in-process all-MiniLM-L6-v2 (quantized, 384 dimensions, no network)
 * and any OpenAI-compatible embeddings endpoint.
 */
public final class Embedders {

    /** The name knowledge bases built with the in-process model record. */
    public static final String LOCAL_MODEL = LocalEmbedder.MODEL;

    static final String OPENAI_COMPATIBLE_PREFIX = EmbeddingEndpoint.RECORDED_PREFIX;

    private Embedders() {}

    /**
     * The in-process all-MiniLM-L6-v2 (quantized). The model (16 MB, loaded in 1–4 s, about 270 MB of
     * memory) is loaded once per JVM on first use and shared; closing the returned embedder keeps it.
     */
    public static Embedder local() {
        return LocalEmbedder.shared();
    }

    /** An embedder calling {@code endpoint}; it never retries by itself and bounds every answer. */
    public static Embedder openAiCompatible(EmbeddingEndpoint endpoint) {
        return new OpenAiEmbedder(endpoint);
    }

    /** For building a knowledge base: the endpoint when one is configured, else the in-process model. */
    public static Embedder configured(Optional<EmbeddingEndpoint> endpoint) {
        return endpoint.map(Embedders::openAiCompatible).orElseGet(Embedders::local);
    }

    /**
     * For querying a knowledge base built with {@code recordedModel}: the in-process model when it
     * recorded that one, else the configured endpoint when it serves the same model.
     *
     * @param kbName names the knowledge base in messages
     * @throws KnowledgeException when the configuration cannot give vectors comparable to the index's
     */
    public static Embedder forModel(String kbName, String recordedModel, Optional<EmbeddingEndpoint> endpoint) {
        if (recordedModel.equals(LOCAL_MODEL)) {
            return local();
        }
        if (!recordedModel.startsWith(OPENAI_COMPATIBLE_PREFIX)) {
            throw new KnowledgeException("knowledge base '" + kbName + "' was built with embedding model '"
                    + recordedModel + "', which this planvm cannot load: index it again with `planvm kb index`");
        }
        EmbeddingEndpoint configured = endpoint.orElseThrow(() -> new KnowledgeException("knowledge base '" + kbName
                + "' was built with embedding model '" + recordedModel + "' from an OpenAI-compatible endpoint: set "
                + EmbeddingEndpoint.BASE_URL_VARIABLE + " (and " + EmbeddingEndpoint.MODEL_VARIABLE + "="
                + recordedModel.substring(OPENAI_COMPATIBLE_PREFIX.length()) + ") to query it"));
        if (!configured.recordedModel().equals(recordedModel)) {
            throw mismatch(kbName, recordedModel, configured.recordedModel());
        }
        return openAiCompatible(configured);
    }

    /** The sentence for a model that does not match the index. */
    static KnowledgeException mismatch(String kbName, String recordedModel, String configuredModel) {
        return new KnowledgeException("knowledge base '" + kbName + "' was built with embedding model '" + recordedModel
                + "' but the configured model is '" + configuredModel
                + "': configure the same model, or index into a new knowledge base");
    }
}
