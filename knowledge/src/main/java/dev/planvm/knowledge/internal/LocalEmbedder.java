package dev.planvm.knowledge.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.util.ArrayList;
import java.util.List;

/**
 * langchain4j's in-process all-MiniLM-L6-v2 (quantized, ONNX). The model is loaded once per JVM, on
 * first use, and shared by every caller: it is immutable and thread-safe, and loading it again would
 * cost seconds and hundreds of megabytes.
 */
public final class LocalEmbedder implements Embedder {

    public static final String MODEL = "all-MiniLM-L6-v2-q";
    public static final int DIMENSION = 384;

    private static final LocalEmbedder SHARED = new LocalEmbedder();

    private volatile EmbeddingModel model;

    private LocalEmbedder() {}

    public static LocalEmbedder shared() {
        return SHARED;
    }

    @Override
    public String model() {
        return MODEL;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (String text : texts) {
            segments.add(TextSegment.from(text.isBlank() ? "(empty)" : text));
        }
        List<Embedding> embeddings = loaded().embedAll(segments).content();
        List<float[]> vectors = new ArrayList<>(embeddings.size());
        for (Embedding embedding : embeddings) {
            vectors.add(embedding.vector());
        }
        return vectors;
    }

    private EmbeddingModel loaded() {
        EmbeddingModel current = model;
        if (current == null) {
            synchronized (this) {
                current = model;
                if (current == null) {
                    Djl.offline();
                    OnnxNative.load();
                    try {
                        current = new AllMiniLmL6V2QuantizedEmbeddingModel();
                    } catch (RuntimeException | LinkageError e) {
                        throw new KnowledgeException(
                                "cannot load the in-process embedding model " + MODEL + ": " + e.getMessage(),
                                false,
                                e);
                    }
                    model = current;
                }
            }
        }
        return current;
    }

    @Override
    public String toString() {
        return "LocalEmbedder[" + MODEL + "]";
    }
}
