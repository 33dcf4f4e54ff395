package dev.planvm.knowledge.internal;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Map;

/**
 * Counts tokens the way the in-process embedding model does: its own WordPiece tokenizer
 * ({@code all-minilm-l6-v2-q-tokenizer.json}, through DJL), without truncation. Long texts are
 * tokenized in windows of at most {@value #WINDOW} characters cut at whitespace, so memory stays
 * bounded. Loaded once per JVM on first use; thread-safe.
 */
public final class Tokens {

    private static final int WINDOW = 50_000;
    private static final String TOKENIZER = "/all-minilm-l6-v2-q-tokenizer.json";
    private static volatile Tokens shared;

    private final HuggingFaceTokenizer tokenizer;

    private Tokens(HuggingFaceTokenizer tokenizer) {
        this.tokenizer = tokenizer;
    }

    public static Tokens shared() {
        Tokens current = shared;
        if (current == null) {
            synchronized (Tokens.class) {
                current = shared;
                if (current == null) {
                    current = load();
                    shared = current;
                }
            }
        }
        return current;
    }

    private static Tokens load() {
        Djl.offline();
        try (InputStream in = AllMiniLmL6V2QuantizedEmbeddingModel.class.getResourceAsStream(TOKENIZER)) {
            if (in == null) {
                throw new KnowledgeException(
                        "the tokenizer of the embedding model is missing from the class path (" + TOKENIZER + ")");
            }
            return new Tokens(HuggingFaceTokenizer.newInstance(
                    in,
                    Map.of(
                            "truncation",
                            "false",
                            "padding",
                            "false",
                            "maxLength",
                            String.valueOf(Integer.MAX_VALUE / 2))));
        } catch (IOException | RuntimeException | LinkageError e) {
            if (e instanceof KnowledgeException known) {
                throw known;
            }
            throw new KnowledgeException(
                    "cannot load the tokenizer of the embedding model: " + e.getMessage(), false, e);
        }
    }

    /** How many tokens {@code text} has. */
    public int count(String text) {
        return starts(text, 0, text.length()).length;
    }

    /** The offsets in {@code text} where the tokens of {@code text[from, to)} start, ascending. */
    public int[] starts(String text, int from, int to) {
        int[] result = new int[Math.max(16, (to - from) / 3)];
        int size = 0;
        int windowStart = from;
        while (windowStart < to) {
            int windowEnd = Math.min(to, windowStart + WINDOW);
            if (windowEnd < to) {
                int cut = windowEnd;
                while (cut > windowStart + WINDOW / 2 && !Character.isWhitespace(text.charAt(cut - 1))) {
                    cut--;
                }
                windowEnd = cut > windowStart + WINDOW / 2 ? cut : windowEnd;
            }
            Encoding encoding = tokenizer.encode(text.substring(windowStart, windowEnd), false, false);
            for (CharSpan span : encoding.getCharTokenSpans()) {
                if (span == null) {
                    continue;
                }
                if (size == result.length) {
                    result = Arrays.copyOf(result, result.length * 2);
                }
                // Offsets are clamped: they index UTF-16 units for the texts we see, but stay in range whatever
                // happens.
                result[size++] = Math.min(windowEnd - 1, windowStart + Math.max(0, span.getStart()));
            }
            windowStart = windowEnd;
        }
        int[] starts = Arrays.copyOf(result, size);
        Arrays.sort(starts);
        return starts;
    }
}
