package dev.planvm.tools.approval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.tools.ToolException;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * What a call of the built-in {@code sleep} tool asks: {@code {"seconds": n}} (0 to 30 days) or
 * {@code {"until": "2026-11-27T09:00:00Z"}} (an ISO-8601 instant or date-time with an offset, at most
 * 30 days after the call starts), exactly one of them.
 *
 * @param seconds how long, or {@code null}
 * @param until   until when, or {@code null}
 */
public record SleepRequest(BigDecimal seconds, Instant until) {

    /** The name of the built-in tool. */
    public static final String TOOL = "sleep";

    /** The longest sleep. */
    public static final Duration MAX = Duration.ofDays(30);

    /**
     * The request a call's params make.
     *
     * @throws ToolException (not retriable) for params that are not exactly one of {@code seconds} and {@code until}
     */
    public static SleepRequest of(JsonNode params) {
        if (params == null || !params.isObject()) {
            throw ToolException.permanent("sleep takes an object {seconds} or {until}");
        }
        JsonNode seconds = params.get("seconds");
        JsonNode until = params.get("until");
        if (params.size() != 1 || (seconds == null) == (until == null)) {
            throw ToolException.permanent(
                    "sleep takes exactly one of seconds (a number) and until (an ISO-8601 time), not " + params);
        }
        if (seconds != null) {
            if (!seconds.isNumber()) {
                throw ToolException.permanent("sleep's seconds must be a number, not " + seconds);
            }
            BigDecimal value = seconds.decimalValue();
            if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(MAX.toSeconds())) > 0) {
                throw ToolException.permanent(
                        "sleep's seconds must be between 0 and " + MAX.toSeconds() + " (30 days), not " + value);
            }
            return new SleepRequest(value, null);
        }
        if (!until.isTextual()) {
            throw ToolException.permanent("sleep's until must be an ISO-8601 time text, not " + until);
        }
        try {
            return new SleepRequest(null, OffsetDateTime.parse(until.asText()).toInstant());
        } catch (DateTimeParseException e) {
            throw ToolException.permanent("sleep's until '" + until.asText()
                    + "' is not an ISO-8601 time with an offset (e.g. 2026-11-27T09:00:00Z)");
        }
    }

    /**
     * When a sleep that starts at {@code now} ends.
     *
     * @throws ToolException when {@code until} is more than {@link #MAX} after {@code now}
     */
    public Instant wake(Instant now) {
        if (seconds != null) {
            return now.plusNanos(seconds.movePointRight(9).longValue());
        }
        if (Duration.between(now, until).compareTo(MAX) > 0) {
            throw ToolException.permanent("sleep's until " + until + " is more than 30 days away");
        }
        return until;
    }

    /** The output of a sleep that waited {@code slept} and ended at {@code wokeAt}. */
    public static JsonNode output(Duration slept, Instant wokeAt) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("slept_seconds", BigDecimal.valueOf(slept.toMillis()).movePointLeft(3));
        out.put("woke_at", wokeAt.toString());
        return out;
    }

    /** The params schema of the built-in {@code sleep} tool. */
    public static JsonNode paramsSchema() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode schema = f.objectNode().put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        properties
                .putObject("seconds")
                .put("type", "number")
                .put("minimum", 0)
                .put("maximum", MAX.toSeconds())
                .put("description", "how long to sleep");
        properties
                .putObject("until")
                .put("type", "string")
                .put("description", "until when: an ISO-8601 time with an offset");
        schema.put("minProperties", 1).put("maxProperties", 1).put("additionalProperties", false);
        return schema;
    }
}
