package dev.planvm.json;

import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * How much of a JSON input planvm reads, and how strictly: one named profile per kind of input,
 * every limit of the code base in this one file. {@link JsonMappers} builds the parsers and mappers
 * that enforce a profile.
 *
 * <p>A limit of {@code -1} (document length, tokens) means none. The defaults not named here are
 * Jackson's own ({@link StreamReadConstraints#defaults()}): 1,000 levels, strings of 20,000,000
 * characters, numbers of 1,000 digits, names of 50,000 characters.
 *
 * @param maxDepth          the deepest nesting of arrays and objects
 * @param maxStringLength   the longest string value, in characters
 * @param maxNumberLength   the longest number, in characters
 * @param maxDocumentLength the longest document, in bytes (or characters), or -1
 * @param maxTokens         the most tokens in one document (a value is one or two), or -1
 * @param noDuplicateKeys   an object with a key twice is malformed
 * @param oneValue          anything after the document's one value is malformed: {@code 42 apples} is not
 *                          the number 42. Every profile reads one value but {@link #PLAN_ANSWER}, whose
 *                          text an LLM wrote (prose may follow the plan)
 */
public record JsonLimits(
        int maxDepth,
        int maxStringLength,
        int maxNumberLength,
        long maxDocumentLength,
        long maxTokens,
        boolean noDuplicateKeys,
        boolean oneValue) {

    private static final StreamReadConstraints JACKSON = StreamReadConstraints.defaults();
    private static final int MIB = 1 << 20;

    /**
     * What planvm wrote itself and reads back, and what it only writes: the run store, traces,
     * batch reports, Temporal payloads, the command line's output. Jackson's defaults; duplicate
     * keys are not looked for; text after the value is malformed (as in every profile derived from
     * this one: a value is JSON only when the whole text is).
     */
    public static final JsonLimits STORE = new JsonLimits(
            JACKSON.getMaxNestingDepth(),
            JACKSON.getMaxStringLength(),
            JACKSON.getMaxNumberLength(),
            JACKSON.getMaxDocumentLength(),
            JACKSON.getMaxTokenCount(),
            false,
            true);

    /**
     * A plan file read by the plan loader, with {@code PlanLimits.DEFAULT} (64 levels, 5 MiB; a
     * loader with other limits uses {@link #withMaxDepth} and {@link #withMaxBytes}).
     */
    public static final JsonLimits PLAN =
            STORE.withMaxDepth(64).withMaxBytes(5 * MIB).strict();

    /**
     * A JSON file a person or a tool wrote beside plans: a plan in the JSON dialect before the loader
     * reads it, an {@code X.expected.json}. Jackson's limits, no duplicate key.
     */
    public static final JsonLimits PLAN_FILE = STORE.withNoDuplicateKeys();

    /**
     * An LLM's answer read as a plan (the agent): no duplicate key, 200 levels (the strict answer
     * form writes each object as entries, two levels more per object than the plan); the one profile
     * that reads the first value of a text and leaves what follows it (an LLM's prose after the plan).
     */
    public static final JsonLimits PLAN_ANSWER = PLAN_FILE.withMaxDepth(200).withTrailingText();

    /**
     * A JSON value found in untrusted text (an LLM's answer, a tool's output): one value, at most
     * 2,000,000 tokens, so that a short text cannot become millions of nodes; Jackson's other limits.
     */
    public static final JsonLimits LLM_ANSWER = STORE.withMaxTokens(2_000_000).withOneValue();

    /** A request body of the HTTP API: 500 levels, strings of 64 MiB, numbers of 1,000 digits; strict. */
    public static final JsonLimits HTTP_BODY =
            STORE.withMaxDepth(500).withMaxStringLength(64 * MIB).strict();

    /**
     * What a tool server sends (an MCP server's answers, an HTTP tool's body, an OpenAPI document):
     * 200 levels, numbers of 1,000 digits; strict.
     */
    public static final JsonLimits TOOL_SERVER = STORE.withMaxDepth(200).strict();

    /**
     * The MCP protocol's messages from a server (the SDK reads them): {@link #TOOL_SERVER}'s sizes,
     * duplicate keys not looked for.
     */
    public static final JsonLimits MCP_MESSAGE = STORE.withMaxDepth(200);

    /** An OpenAPI document (JSON or YAML; a YAML stream's first document): 200 levels, no duplicate key. */
    public static final JsonLimits OPENAPI_DOCUMENT = MCP_MESSAGE.withNoDuplicateKeys();

    /** A configuration file ({@code planvm.json}): 64 levels, strings of 1 MiB, numbers of 100 digits; strict. */
    public static final JsonLimits CONFIG = STORE.withMaxDepth(64)
            .withMaxStringLength(MIB)
            .withMaxNumberLength(100)
            .strict();

    /** A knowledge base's own files and its extraction answers: 64 levels, strings of 1 MiB. */
    public static final JsonLimits KNOWLEDGE = STORE.withMaxDepth(64).withMaxStringLength(MIB);

    /**
     * A cassette of at most 64 MiB (a larger limit raises the string limit with it: a recorded answer
     * may be most of the file); Jackson's other limits.
     */
    public static final JsonLimits CASSETTE = STORE.withMaxStringLength(64 * MIB);

    public JsonLimits {
        if (maxDepth < 1 || maxStringLength < 1 || maxNumberLength < 1) {
            throw new IllegalArgumentException(
                    "JSON limits must be positive: " + maxDepth + ", " + maxStringLength + ", " + maxNumberLength);
        }
    }

    // equals and hashCode written out: a record's generated ones link through invokedynamic on first use, a few
    // milliseconds of every start of the command line (the shared mappers are kept by limits)
    @Override
    public boolean equals(Object other) {
        return other instanceof JsonLimits limits
                && maxDepth == limits.maxDepth
                && maxStringLength == limits.maxStringLength
                && maxNumberLength == limits.maxNumberLength
                && maxDocumentLength == limits.maxDocumentLength
                && maxTokens == limits.maxTokens
                && noDuplicateKeys == limits.noDuplicateKeys
                && oneValue == limits.oneValue;
    }

    @Override
    public int hashCode() {
        int hash = maxDepth;
        hash = 31 * hash + maxStringLength;
        hash = 31 * hash + maxNumberLength;
        hash = 31 * hash + Long.hashCode(maxDocumentLength);
        hash = 31 * hash + Long.hashCode(maxTokens);
        hash = 31 * hash + Boolean.hashCode(noDuplicateKeys);
        return 31 * hash + Boolean.hashCode(oneValue);
    }

    public JsonLimits withMaxDepth(int depth) {
        return new JsonLimits(
                depth, maxStringLength, maxNumberLength, maxDocumentLength, maxTokens, noDuplicateKeys, oneValue);
    }

    public JsonLimits withMaxStringLength(int length) {
        return new JsonLimits(
                maxDepth, length, maxNumberLength, maxDocumentLength, maxTokens, noDuplicateKeys, oneValue);
    }

    public JsonLimits withMaxNumberLength(int length) {
        return new JsonLimits(
                maxDepth, maxStringLength, length, maxDocumentLength, maxTokens, noDuplicateKeys, oneValue);
    }

    public JsonLimits withMaxTokens(long tokens) {
        return new JsonLimits(
                maxDepth, maxStringLength, maxNumberLength, maxDocumentLength, tokens, noDuplicateKeys, oneValue);
    }

    /** The document and every string in it at most {@code bytes} long (a string cannot be longer than its document). */
    public JsonLimits withMaxBytes(long bytes) {
        return new JsonLimits(
                maxDepth,
                (int) Math.min(Integer.MAX_VALUE - 8, bytes),
                maxNumberLength,
                bytes,
                maxTokens,
                noDuplicateKeys,
                oneValue);
    }

    public JsonLimits withNoDuplicateKeys() {
        return new JsonLimits(maxDepth, maxStringLength, maxNumberLength, maxDocumentLength, maxTokens, true, oneValue);
    }

    public JsonLimits withOneValue() {
        return new JsonLimits(
                maxDepth, maxStringLength, maxNumberLength, maxDocumentLength, maxTokens, noDuplicateKeys, true);
    }

    /** The first value of a text, whatever follows it (only for text an LLM wrote: {@link #PLAN_ANSWER}). */
    public JsonLimits withTrailingText() {
        return new JsonLimits(
                maxDepth, maxStringLength, maxNumberLength, maxDocumentLength, maxTokens, noDuplicateKeys, false);
    }

    /** No duplicate key and nothing after the value. */
    public JsonLimits strict() {
        return withNoDuplicateKeys().withOneValue();
    }

    /** These limits as Jackson's constraints. */
    public StreamReadConstraints constraints() {
        return StreamReadConstraints.builder()
                .maxNestingDepth(maxDepth)
                .maxStringLength(maxStringLength)
                .maxNumberLength(maxNumberLength)
                .maxDocumentLength(maxDocumentLength)
                .maxTokenCount(maxTokens)
                .build();
    }
}
