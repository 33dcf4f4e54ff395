package dev.planvm.llm;

/**
 * An LLM server's answer that planvm will not use: larger than the size cap, or a success whose
 * body is not JSON. Thrown by {@link StatusHttpClient}; {@link LlmFailures} words it (with the
 * server's URL) as a failure that is not retried.
 */
final class LlmAnswerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What is wrong with the answer. */
    enum Kind {
        TOO_LARGE,
        NOT_JSON
    }

    private final Kind kind;
    private final long limit;
    private final int status;

    private LlmAnswerException(Kind kind, String detail, long limit, int status) {
        super(detail, null, false, false);
        this.kind = kind;
        this.limit = limit;
        this.status = status;
    }

    /** An answer of more than {@code limit} bytes, abandoned there. */
    static LlmAnswerException tooLarge(long limit) {
        return new LlmAnswerException(Kind.TOO_LARGE, "more than " + limit + " bytes", limit, 0);
    }

    /** A success ({@code status}) whose body (its start: {@code preview}) is not JSON. */
    static LlmAnswerException notJson(int status, String preview) {
        return new LlmAnswerException(Kind.NOT_JSON, preview, 0, status);
    }

    Kind kind() {
        return kind;
    }

    long limit() {
        return limit;
    }

    int status() {
        return status;
    }
}
