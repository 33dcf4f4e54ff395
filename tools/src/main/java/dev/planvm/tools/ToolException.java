package dev.planvm.tools;

/**
 * A tool call that failed. {@link #retriable()} tells the retry link whether trying again can help
 * (an I/O error, a timeout, HTTP 429 or 5xx) or not (bad params, a 4xx, a refusal). The message is
 * a plain sentence for the user; the VM adds the {@code seq_no} and the tool name.
 */
public class ToolException extends RuntimeException {

    private final boolean retriable;

    public ToolException(String message, boolean retriable) {
        super(message);
        this.retriable = retriable;
    }

    public ToolException(String message, boolean retriable, Throwable cause) {
        super(message, cause);
        this.retriable = retriable;
    }

    /** A failure that trying again cannot fix. */
    public static ToolException permanent(String message) {
        return new ToolException(message, false);
    }

    /** A failure that may go away if tried again. */
    public static ToolException transientFailure(String message, Throwable cause) {
        return new ToolException(message, true, cause);
    }

    public boolean retriable() {
        return retriable;
    }
}
