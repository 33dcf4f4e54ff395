package dev.planvm.tools;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A tool call that failed. {@link #retriable()} tells the retry link whether trying again can help
 * (an I/O error, a timeout, HTTP 429 or 5xx) or not (bad params, a 4xx, a refusal). The message is
 * a plain sentence for the user; the VM adds the {@code seq_no} and the tool name.
 *
 * <p>A retriable failure may say how long the other side asked us to wait before trying again
 * ({@link #retryAfter()}, e.g. from an HTTP {@code Retry-After} header); the retry link then waits
 * at least that long.
 */
public class ToolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean retriable;
    private final Duration retryAfter;

    public ToolException(String message, boolean retriable) {
        this(message, retriable, null, null);
    }

    public ToolException(String message, boolean retriable, Throwable cause) {
        this(message, retriable, cause, null);
    }

    /**
     * @param cause      may be {@code null}
     * @param retryAfter how long the other side asked to wait before the next attempt, or {@code null}
     */
    public ToolException(String message, boolean retriable, Throwable cause, Duration retryAfter) {
        super(message, cause);
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must not be negative, not " + retryAfter);
        }
        this.retriable = retriable;
        this.retryAfter = retryAfter;
    }

    /** A failure that trying again cannot fix. */
    public static ToolException permanent(String message) {
        return new ToolException(message, false);
    }

    /** A failure that may go away if tried again. */
    public static ToolException transientFailure(String message, Throwable cause) {
        return new ToolException(message, true, cause);
    }

    /** A retriable failure whose other side asked to wait {@code retryAfter} before trying again (HTTP 429). */
    public static ToolException retryAfter(String message, Duration retryAfter) {
        return new ToolException(message, true, null, Objects.requireNonNull(retryAfter, "retryAfter"));
    }

    public boolean retriable() {
        return retriable;
    }

    /** How long the other side asked to wait before the next attempt; empty when it did not say. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
