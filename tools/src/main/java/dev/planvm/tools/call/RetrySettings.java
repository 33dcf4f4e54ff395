package dev.planvm.tools.call;

import dev.planvm.tools.Tool;
import dev.planvm.tools.ToolNames;
import dev.planvm.tools.ToolRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How the retry and timeout links treat each call: a {@link RetryPolicy} and an attempt timeout,
 * by default and per tool name. Conditions ({@code condition_prompt}) use the defaults. Immutable.
 *
 * @param retry         the policy of tools without one of their own, and of conditions
 * @param toolRetries   tool name to its own policy (a call matches it by its tool's canonical name)
 * @param timeout       the longest one attempt of a call may take, or {@code null} for no limit
 * @param toolTimeouts  tool name to its own attempt timeout; {@link Duration#ZERO} means no limit for that tool
 * @param maxRetryAfter the longest wait a failure's {@code Retry-After} may ask for: a longer one is
 *                      not waited for, the call fails at once
 */
public record RetrySettings(
        RetryPolicy retry,
        Map<String, RetryPolicy> toolRetries,
        Duration timeout,
        Map<String, Duration> toolTimeouts,
        Duration maxRetryAfter) {

    /** The longest {@code Retry-After} waited for by default. */
    public static final Duration DEFAULT_MAX_RETRY_AFTER = Duration.ofSeconds(60);

    /** {@link RetryPolicy#DEFAULT}, no timeout, {@code Retry-After} up to 60 s. */
    public static final RetrySettings DEFAULT = of(RetryPolicy.DEFAULT);

    public RetrySettings {
        Objects.requireNonNull(retry, "retry");
        toolRetries = Map.copyOf(toolRetries);
        toolTimeouts = Map.copyOf(toolTimeouts);
        if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
            throw new IllegalArgumentException("the call timeout must be positive, not " + timeout);
        }
        toolTimeouts.forEach((tool, limit) -> {
            if (limit.isNegative()) {
                throw new IllegalArgumentException("the timeout of tool '" + tool + "' must not be negative");
            }
        });
        Objects.requireNonNull(maxRetryAfter, "maxRetryAfter");
        if (maxRetryAfter.isNegative()) {
            throw new IllegalArgumentException("maxRetryAfter must not be negative");
        }
    }

    /** {@code retry} for every call, no timeout, {@code Retry-After} up to 60 s. */
    public static RetrySettings of(RetryPolicy retry) {
        return new RetrySettings(retry, Map.of(), null, Map.of(), DEFAULT_MAX_RETRY_AFTER);
    }

    /**
     * The retry policy of {@code call}: its tool's own policy set here (keyed by the tool's canonical
     * name, or a bare name standing for it: {@link ToolNames#lookup}), else the attempts the tool itself
     * declares ({@link dev.planvm.tools.Tool#maxAttempts()}) with the default backoff, else the default.
     */
    public RetryPolicy retryFor(Call call, ToolRegistry tools) {
        if (call instanceof Call.ToolCall tool) {
            RetryPolicy own =
                    toolRetries.isEmpty() ? null : tools.canonicalNames().lookup(toolRetries, tool.canonical());
            if (own != null) {
                return own;
            }
            OptionalInt declared =
                    tools.find(tool.tool()).map(Tool::maxAttempts).orElse(OptionalInt.empty());
            if (declared.isPresent()) {
                return retry.withMaxAttempts(declared.getAsInt());
            }
        }
        return retry;
    }

    /**
     * The attempt timeout of {@code call}, by one precedence for every kind of tool ({@code null}: none,
     * and {@link Duration#ZERO} at any level means none):
     * <ol>
     *   <li>the tool's timeout set here ({@code --tool-timeout TOOL=S}, keyed like
     *       {@link #retryFor(Call, ToolRegistry)});</li>
     *   <li>the tool's own setting ({@link dev.planvm.tools.Tool#callTimeout()}: {@code timeout_s} in planvm.json);</li>
     *   <li>the run's default ({@code --call-timeout});</li>
     *   <li>the tool kind's default ({@link dev.planvm.tools.Tool#defaultCallTimeout()}: HTTP 30 s, MCP 120 s, the LLM's).</li>
     * </ol>
     */
    public Duration timeoutFor(Call call, ToolRegistry tools) {
        if (!(call instanceof Call.ToolCall tool)) {
            return timeout;
        }
        Duration option = toolTimeouts.isEmpty() ? null : tools.canonicalNames().lookup(toolTimeouts, tool.canonical());
        if (option != null) {
            return option.isZero() ? null : option;
        }
        Optional<Tool> found = tools.find(tool.tool());
        Optional<Duration> own = found.flatMap(Tool::callTimeout);
        if (own.isPresent()) {
            return own.get().isZero() ? null : own.get();
        }
        if (timeout != null) {
            return timeout;
        }
        return found.flatMap(Tool::defaultCallTimeout).filter(d -> !d.isZero()).orElse(null);
    }

    /** The retry policy of {@code call}, its tool's own set here by its canonical name. */
    public RetryPolicy retryFor(Call call) {
        if (call instanceof Call.ToolCall tool && !toolRetries.isEmpty()) {
            return toolRetries.getOrDefault(tool.canonical(), retry);
        }
        return retry;
    }

    /** The timeout of one attempt of {@code call} (its tool's own set here by its canonical name), or {@code null} when it has none. */
    public Duration timeoutFor(Call call) {
        if (call instanceof Call.ToolCall tool && !toolTimeouts.isEmpty()) {
            Duration own = toolTimeouts.get(tool.canonical());
            if (own != null) {
                return own.isZero() ? null : own;
            }
        }
        return timeout;
    }

    /** Whether some call may have a timeout (if not, the timeout link passes every call straight on). */
    public boolean hasTimeouts() {
        return timeout != null || toolTimeouts.values().stream().anyMatch(t -> !t.isZero());
    }
}
