package dev.planvm.tools.chain.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.ToolRegistry;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.call.RetrySettings;
import dev.planvm.tools.call.Sleeper;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries calls that failed with a retriable {@link ToolException} (I/O errors, timeouts, HTTP 429
 * and 5xx), with exponential backoff and jitter, up to the {@link RetryPolicy#maxAttempts()} of the
 * call's policy ({@link RetrySettings#retryFor}). Non-retriable failures pass through at once.
 *
 * <p>A failure that carries a {@link ToolException#retryAfter() Retry-After} is retried after
 * {@code max(backoff, retryAfter)}; when the server asks for more than
 * {@link RetrySettings#maxRetryAfter()}, the call fails at once instead (waiting less would only be
 * refused again). Every failed attempt of a call that is retried is told to the chain's listeners
 * ({@link dev.planvm.tools.call.CallListener#attemptFailed}); when the last attempt fails too, the message ends with
 * {@code (after N attempts)}.
 *
 * <p>An attempt the other side refused for load ({@link ToolException#overloaded()}: 429, 503, Retry-After) is
 * retried as it asks without using up the call's attempts, up to {@value #MAX_REFUSALS} refusals (a call whose
 * policy allows no retry is not retried at all): the tool's adaptive concurrency limit shrinks on each refusal,
 * so refusals end once the limit fits the service; and whether a call was refused depends on what else ran at
 * the time, which must not change how a plan ends — a concurrent run and its sequential twin fail alike, with
 * the same message, whatever storm one of them met. {@code (after N attempts)} counts the other attempts.
 */
public final class RetryLink implements CallInterceptor {

    private static final Logger log = LoggerFactory.getLogger(RetryLink.class);

    /** The most times one call is refused for load before it fails. */
    public static final int MAX_REFUSALS = 20;

    private final RetrySettings settings;
    private final Sleeper sleeper;

    private final ToolRegistry tools;

    /** @param tools where a tool's own attempts are looked up ({@link RetrySettings#retryFor(Call, ToolRegistry)}) */
    public RetryLink(RetrySettings settings, Sleeper sleeper, ToolRegistry tools) {
        this.tools = tools;
        this.settings = settings;
        this.sleeper = sleeper;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        RetryPolicy policy = settings.retryFor(call, tools);
        int failures = 0; // attempts that failed other than for load
        int refusals = 0;
        for (int attempt = 1; ; attempt++) {
            long start = System.nanoTime();
            try {
                return chain.proceed(call);
            } catch (ToolException e) {
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                Duration retryAfter = e.retryAfter().orElse(Duration.ZERO);
                boolean refused = e.overloaded() && policy.maxAttempts() > 1;
                int tries = refused ? ++refusals : ++failures;
                if (!e.retriable() || tries >= (refused ? MAX_REFUSALS : policy.maxAttempts())) {
                    throw giveUp(chain, e, attempt, failures, took, null);
                }
                if (retryAfter.compareTo(settings.maxRetryAfter()) > 0) {
                    throw giveUp(chain, e, attempt, failures, took, retryAfter);
                }
                Duration backoff =
                        policy.backoff(tries, ThreadLocalRandom.current().nextDouble());
                Duration wait = retryAfter.compareTo(backoff) > 0 ? retryAfter : backoff;
                chain.attemptFailed(new FailedAttempt(attempt, e, took, wait));
                if (refused) {
                    log.debug(
                            "{} at seq_no {} was refused for load ({}); trying again in {} ms",
                            call.describe(),
                            call.context().seqNo(),
                            e.getMessage(),
                            wait.toMillis());
                } else {
                    log.info(
                            "{} at seq_no {} failed ({}); attempt {} of {} in {} ms",
                            call.describe(),
                            call.context().seqNo(),
                            e.getMessage(),
                            failures + 1,
                            policy.maxAttempts(),
                            wait.toMillis());
                }
                try {
                    sleeper.sleep(wait);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new ToolException(
                            "interrupted while waiting to retry " + call.describe(), false, interrupted);
                }
            }
        }
    }

    /**
     * The failure that ends the call at {@code attempt}, the {@code failures}-th that failed other than for load;
     * {@code refusedWait} when the server asked for too long a wait.
     */
    private ToolException giveUp(
            Chain chain, ToolException e, int attempt, int failures, Duration took, Duration refusedWait) {
        String message = e.getMessage();
        if (refusedWait != null) {
            message += " (the server asks to wait " + seconds(refusedWait) + " before retrying, more than the "
                    + seconds(settings.maxRetryAfter()) + " planvm waits)";
        }
        if (attempt > 1) {
            chain.attemptFailed(new FailedAttempt(attempt, e, took, null));
        }
        if (failures > 1) {
            message += " (after " + failures + " attempts)";
        }
        return message.equals(e.getMessage()) ? e : new ToolException(message, e.retriable(), e, null, e.kind());
    }

    /** {@code 60 s}, {@code 1.5 s}. */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis())
                        .movePointLeft(3)
                        .stripTrailingZeros()
                        .toPlainString() + " s";
    }
}
