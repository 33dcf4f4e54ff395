package dev.planvm.knowledge.internal;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.CharSpan;
import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.planvm.knowledge.spi.KnowledgeException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Counts tokens the way the in-process embedding model does: its own WordPiece tokenizer
 * ({@code all-minilm-l6-v2-q-tokenizer.json}, through DJL), without truncation. Long texts are
 * tokenized in windows of at most {@value #WINDOW} characters cut at whitespace, so memory stays
 * bounded. Loaded once per JVM on first use; thread-safe.
 */
public final class Tokens {

    /** Characters of text the tokenizer cannot read that count as one token. */
    public static final int UNKNOWN_CHARS_PER_TOKEN = 3;

    private static final int WINDOW = 50_000;
    private static final String UNKNOWN = "[UNK]";
    private static final int LONGEST_CLUSTER = 32;
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

    /**
     * The offsets in {@code text} where the tokens of {@code text[from, to)} start, ascending. Text the
     * tokenizer cannot read counts by its size, {@value #UNKNOWN_CHARS_PER_TOKEN} characters a token
     * (rounded up, at grapheme cluster starts: see {@link #unknown}): a word it maps to one
     * {@code [UNK]} — a run of more than 100 characters without whitespace, a string of emoji — and
     * characters it drops (controls, zero-width characters). An LLM reading such text spends about that.
     */
    public int[] starts(String text, int from, int to) {
        Starts starts = new Starts(Math.max(16, (to - from) / 3));
        int windowStart = from;
        while (windowStart < to) {
            int windowEnd = Math.min(to, windowStart + WINDOW);
            if (windowEnd < to) {
                int cut = windowEnd;
                while (cut > windowStart + WINDOW / 2 && !Character.isWhitespace(text.charAt(cut - 1))) {
                    cut--;
                }
                windowEnd = cut > windowStart + WINDOW / 2
                        ? cut
                        : Graphemes.boundaryAtOrBefore(text, windowStart, windowEnd);
            }
            String window = text.substring(windowStart, windowEnd);
            Encoding encoding = tokenizer.encode(window, false, false);
            String[] names = encoding.getTokens();
            CharSpan[] spans = encoding.getCharTokenSpans();
            Utf16 utf16 = new Utf16(window);
            int covered = windowStart; // where the text covered by a token so far ends
            for (int i = 0; i < spans.length; i++) {
                CharSpan span = spans[i];
                if (span == null) {
                    continue;
                }
                // the tokenizer counts code points; the text is indexed in UTF-16 units
                int start = windowStart + utf16.index(Math.max(0, span.getStart()));
                int end = Math.max(start, windowStart + utf16.index(Math.max(0, span.getEnd())));
                if (start > covered) {
                    unknown(text, covered, start, starts);
                }
                if (UNKNOWN.equals(names[i]) && end - start > UNKNOWN_CHARS_PER_TOKEN) {
                    unknown(text, start, end, starts);
                } else {
                    starts.add(Math.min(windowEnd - 1, start));
                }
                covered = Math.max(covered, end);
            }
            if (covered < windowEnd) {
                unknown(text, covered, windowEnd, starts);
            }
            windowStart = windowEnd;
        }
        return starts.sorted();
    }

    /**
     * Starts for {@code text[from, to)}, which the tokenizer did not read: each run of non-whitespace
     * counts one token per {@value #UNKNOWN_CHARS_PER_TOKEN} characters (rounded up), placed at the start
     * of the grapheme cluster that reaches them (several at one start for a long cluster, such as a ZWJ
     * sequence), so that a cut at a token start never splits a cluster. A "cluster" longer than
     * {@value #LONGEST_CLUSTER} characters (thousands of combining marks) is no real one: it is cut
     * between code points.
     */
    private static void unknown(String text, int from, int to, Starts starts) {
        int i = from;
        while (i < to) {
            while (i < to && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            int run = i;
            while (i < to && !Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            if (run < i) {
                int counted = 0;
                List<Integer> clusters = Graphemes.starts(text, run, i);
                for (int c = 0; c < clusters.size(); c++) {
                    int start = clusters.get(c);
                    int end = c + 1 < clusters.size() ? clusters.get(c + 1) : i;
                    if (end - start > LONGEST_CLUSTER) {
                        for (int p = start; p < end; p += Character.charCount(text.codePointAt(p))) {
                            counted = owe(starts, p, p + Character.charCount(text.codePointAt(p)) - run, counted);
                        }
                    } else {
                        counted = owe(starts, start, end - run, counted);
                    }
                }
            }
        }
    }

    /** Adds at {@code at} the starts that {@code length} characters of a run owe beyond {@code counted}; returns the new count. */
    private static int owe(Starts starts, int at, int length, int counted) {
        int owed = (length + UNKNOWN_CHARS_PER_TOKEN - 1) / UNKNOWN_CHARS_PER_TOKEN;
        for (int k = counted; k < owed; k++) {
            starts.add(at);
        }
        return Math.max(counted, owed);
    }

    /** A growing array of offsets. */
    private static final class Starts {
        private int[] values;
        private int size;

        Starts(int capacity) {
            values = new int[capacity];
        }

        void add(int offset) {
            if (size == values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
            values[size++] = offset;
        }

        int[] sorted() {
            int[] result = Arrays.copyOf(values, size);
            Arrays.sort(result);
            return result;
        }
    }

    /** Code point offsets of one string to UTF-16 indexes, fastest when asked in increasing order. */
    private static final class Utf16 {
        private final String text;
        private int codePoints;
        private int index;

        Utf16(String text) {
            this.text = text;
        }

        int index(int codePoint) {
            if (codePoint < codePoints) {
                codePoints = 0;
                index = 0;
            }
            while (codePoints < codePoint && index < text.length()) {
                index += Character.charCount(text.codePointAt(index));
                codePoints++;
            }
            return index;
        }
    }
}
