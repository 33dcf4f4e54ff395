package dev.planvm.tools.call;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One attempt of a call that failed, as the retry link reports it to {@link CallListener}s.
 *
 * @param number   the attempt, counting from 1
 * @param failure  why it failed
 * @param duration how long the attempt took
 * @param nextWait how long the retry link waits before the next attempt, or {@code null} when no
 *                 attempt follows (the call fails with this failure)
 */
public record FailedAttempt(int number, ToolException failure, Duration duration, Duration nextWait) {

    public FailedAttempt {
        if (number < 1) {
            throw new IllegalArgumentException("attempt numbers start at 1");
        }
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(duration, "duration");
    }

    /**
     * The trace form: {@code {"attempt": 1, "error": "...", "duration_ms": 12.3, "waited_ms": 480}},
     * {@code waited_ms} absent when no attempt followed.
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("attempt", number);
        json.put("error", String.valueOf(failure.getMessage()));
        json.put("duration_ms", duration.toNanos() / 1_000_000.0);
        if (nextWait != null) {
            json.put("waited_ms", nextWait.toMillis());
        }
        return json;
    }

    /** The trace form of several attempts, in order. */
    public static ArrayNode toJson(List<FailedAttempt> attempts) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        attempts.forEach(attempt -> array.add(attempt.toJson()));
        return array;
    }
}
