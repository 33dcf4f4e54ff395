package dev.planvm.knowledge.internal;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.planvm.knowledge.spi.Embedder;
import dev.planvm.knowledge.spi.EmbeddingEndpoint;
import dev.planvm.knowledge.spi.KnowledgeException;
import dev.planvm.llm.StatusHttpClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * An OpenAI-compatible {@code /embeddings} endpoint through langchain4j's {@link OpenAiEmbeddingModel}:
 * no retries of its own (planvm's call chain retries tool calls), answers bounded to 64 MB and read within the
 * timeout by the LLM providers' HTTP adapter ({@link StatusHttpClient}), failures turned into one sentence
 * naming the endpoint, never the key.
 */
public final class OpenAiEmbedder implements Embedder {

    static final long MAX_ANSWER_BYTES = 64L << 20;
    private static final int BATCH = 64;

    private final EmbeddingEndpoint endpoint;
    private final OpenAiEmbeddingModel model;

    public OpenAiEmbedder(EmbeddingEndpoint endpoint) {
        this(endpoint, MAX_ANSWER_BYTES);
    }

    /** An embedder refusing answers larger than {@code maxAnswerBytes}. */
    public OpenAiEmbedder(EmbeddingEndpoint endpoint, long maxAnswerBytes) {
        this.endpoint = endpoint;
        this.model = OpenAiEmbeddingModel.builder()
                .httpClientBuilder(StatusHttpClient.builder().maxResponseBytes(maxAnswerBytes))
                .baseUrl(endpoint.baseUrl().toString())
                .apiKey(endpoint.apiKey() == null ? "not-needed" : endpoint.apiKey())
                .modelName(endpoint.model())
                .timeout(endpoint.timeout())
                .maxRetries(0)
                .maxSegmentsPerBatch(BATCH)
                .logRequests(false)
                .logResponses(false)
                .build();
    }

    @Override
    public String model() {
        return endpoint.recordedModel();
    }

    @Override
    public int batchSize() {
        return BATCH;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<TextSegment> segments = new ArrayList<>(texts.size());
        for (String text : texts) {
            segments.add(TextSegment.from(text.isBlank() ? "(empty)" : text));
        }
        List<Embedding> embeddings;
        try {
            embeddings = model.embedAll(segments).content();
        } catch (RuntimeException e) {
            throw failure(e);
        }
        if (embeddings == null || embeddings.size() != texts.size()) {
            throw new KnowledgeException(
                    "the embeddings endpoint " + endpoint.baseUrl() + " answered "
                            + (embeddings == null ? 0 : embeddings.size()) + " vectors for " + texts.size() + " texts",
                    true,
                    null);
        }
        List<float[]> vectors = new ArrayList<>(embeddings.size());
        for (Embedding embedding : embeddings) {
            if (embedding == null || embedding.vector() == null || embedding.vector().length == 0) {
                throw new KnowledgeException(
                        "the embeddings endpoint " + endpoint.baseUrl() + " answered an empty vector", false, null);
            }
            vectors.add(embedding.vector());
        }
        return vectors;
    }

    private KnowledgeException failure(RuntimeException e) {
        String where = "the embeddings endpoint " + endpoint.baseUrl();
        OptionalLong cap = StatusHttpClient.answerCapPassed(e);
        if (cap.isPresent()) {
            return new KnowledgeException(
                    where + " sent an answer larger than " + cap.getAsLong() + " bytes", false, null);
        }
        HttpException http = find(e, HttpException.class);
        if (http != null) {
            int status = http.statusCode();
            boolean retriable = status == 429 || status >= 500;
            String why = status == 401 || status == 403 ? "refused the key" : "answered HTTP " + status;
            return new KnowledgeException(
                    redact(where + " " + why + ": " + oneLine(http.getMessage())), retriable, null);
        }
        if (find(e, TimeoutException.class) != null
                || find(e, HttpConnectTimeoutException.class) != null
                || find(e, java.net.http.HttpTimeoutException.class) != null) {
            return new KnowledgeException(
                    where + " did not answer within " + endpoint.timeout().toSeconds() + " s", true, null);
        }
        if (find(e, ConnectException.class) != null) {
            return new KnowledgeException(where + " refused the connection", true, null);
        }
        if (find(e, IOException.class) != null || e instanceof UncheckedIOException) {
            return new KnowledgeException(
                    redact(where + " failed: " + oneLine(String.valueOf(e.getMessage()))), true, null);
        }
        return new KnowledgeException(
                redact(where + " gave an answer that is not an embeddings answer: "
                        + oneLine(String.valueOf(e.getMessage()))),
                false,
                null);
    }

    private String redact(String message) {
        String key = endpoint.apiKey();
        return key == null ? message : message.replace(key, "****");
    }

    private static String oneLine(String text) {
        String flat = text == null ? "" : text.replaceAll("\\s+", " ").strip();
        return flat.length() > 300 ? flat.substring(0, 300) + "…" : flat;
    }

    private static <T extends Throwable> T find(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "OpenAiEmbedder[" + endpoint + "]";
    }
}
