package dev.planvm.temporal;

/**
 * Something planvm could not do with Temporal, in one sentence: the server cannot be reached, no
 * workflow has that id, a workflow ended without a result, a request is too large.
 */
public final class TemporalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public TemporalException(String message) {
        super(message);
    }

    public TemporalException(String message, Throwable cause) {
        super(message, cause);
    }
}
