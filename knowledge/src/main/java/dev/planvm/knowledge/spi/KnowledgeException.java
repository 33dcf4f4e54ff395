package dev.planvm.knowledge.spi;

/**
 * A knowledge base problem told in one plain sentence that names where it is (the knowledge base, the
 * file, the endpoint): a missing, damaged or foreign index, a model that does not match the index, an
 * embeddings endpoint that failed. {@link #retriable()} says whether trying again can help (an
 * endpoint that timed out or answered 5xx) or not. Messages never hold secrets.
 */
public class KnowledgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean retriable;

    public KnowledgeException(String message) {
        this(message, false, null);
    }

    public KnowledgeException(String message, boolean retriable, Throwable cause) {
        super(message, cause);
        this.retriable = retriable;
    }

    /** Whether the same operation may succeed if tried again. */
    public boolean retriable() {
        return retriable;
    }
}
