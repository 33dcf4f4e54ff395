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

    /**
     * What kind of tool failure it is, as a plan's {@code last_error} names it: the call timed out, a rule
     * or a reviewer denied it, or the tool (or what it reaches) failed.
     */
    public enum Kind {
        TOOL_ERROR,
        TIMEOUT,
        DENIED;

        /** {@code tool_error}, {@code timeout}, {@code denied}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final boolean retriable;
    private final Duration retryAfter;
    private final Kind kind;
    private final boolean overloaded;

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
        this(message, retriable, cause, retryAfter, Kind.TOOL_ERROR);
    }

    /** A failure of a {@link Kind} (a timeout, a denial); the other constructors make {@link Kind#TOOL_ERROR}s. */
    public ToolException(String message, boolean retriable, Throwable cause, Duration retryAfter, Kind kind) {
        this(message, retriable, cause, retryAfter, kind, retryAfter != null);
    }

    /**
     * @param overloaded whether the other side refused the call for load (HTTP 429 or 503): the tool's
     *                   adaptive concurrency limit shrinks ({@link #overloaded()})
     */
    private ToolException(
            String message, boolean retriable, Throwable cause, Duration retryAfter, Kind kind, boolean overloaded) {
        super(message, cause);
        this.overloaded = overloaded;
        this.kind = Objects.requireNonNull(kind, "kind");
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

    /** A call that did not answer in time (retriable). */
    public static ToolException timeout(String message) {
        return new ToolException(message, true, null, null, Kind.TIMEOUT);
    }

    /** A call that a rule or a reviewer refused (never retried). */
    public static ToolException denied(String message) {
        return new ToolException(message, false, null, null, Kind.DENIED);
    }

    /** A failure that may go away if tried again. */
    public static ToolException transientFailure(String message, Throwable cause) {
        return new ToolException(message, true, cause);
    }

    /** A retriable failure whose other side asked to wait {@code retryAfter} before trying again (HTTP 429). */
    public static ToolException retryAfter(String message, Duration retryAfter) {
        return new ToolException(message, true, null, Objects.requireNonNull(retryAfter, "retryAfter"));
    }

    /**
     * A retriable failure because the other side is overloaded (HTTP 429 Too Many Requests, 503 Service
     * Unavailable), with how long it asked to wait, or {@code null} when it did not say.
     */
    public static ToolException overloaded(String message, Duration retryAfter) {
        return new ToolException(message, true, null, retryAfter, Kind.TOOL_ERROR, true);
    }

    /**
     * Whether the other side refused the call for load: it answered 429 or 503 ({@link #overloaded(String,
     * Duration)}), or asked to wait ({@link #retryAfter()}). The tool's adaptive concurrency limit shrinks on it.
     */
    public boolean overloaded() {
        return overloaded;
    }

    /**
     * The same failure — retriable or not, its wait, kind and whether it was refused for load — told with another
     * message and cause (a redacted message, a cause that may not travel).
     */
    public ToolException withMessage(String message, Throwable cause) {
        return new ToolException(message, retriable, cause, retryAfter, kind, overloaded);
    }

    /** What kind of failure it is (a subclass or a wrapper keeps the kind it was given). */
    public Kind kind() {
        return kind;
    }

    public boolean retriable() {
        return retriable;
    }

    /** How long the other side asked to wait before the next attempt; empty when it did not say. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
