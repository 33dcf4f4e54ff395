package dev.planvm.llm;

import dev.langchain4j.exception.HttpException;
import java.time.Duration;
import java.util.Optional;

/**
 * An HTTP error answer, as langchain4j's {@link HttpException} (so its exception mapping still
 * works), plus how long the server asked us to wait before trying again ({@code Retry-After}).
 */
final class HttpStatusException extends HttpException {
    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    /** @param retryAfter the wait the server asked for, or {@code null} */
    HttpStatusException(int statusCode, String body, Duration retryAfter) {
        super(statusCode, body);
        this.retryAfter = retryAfter;
    }

    Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
