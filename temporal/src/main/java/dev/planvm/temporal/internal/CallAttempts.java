package dev.planvm.temporal.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.temporal.contract.AttemptRecord;
import dev.planvm.temporal.contract.CallAnswer;
import dev.planvm.temporal.contract.CallSettings;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.RetryPolicy;
import dev.planvm.tools.chain.CallChain;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.client.ActivityCompletionException;
import io.temporal.failure.ApplicationErrorCategory;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One attempt of a call, on a worker: planvm's retry decisions made per Temporal activity attempt.
 * A failure that can pass is thrown as a retryable {@link ApplicationFailure} whose next-retry
 * delay is planvm's backoff (with jitter) or the server's {@code Retry-After}, whichever is longer;
 * the last attempt, a failure that cannot pass, or a {@code Retry-After} longer than the run
 * waits fails for good with the message a local retry link writes ({@code (after 3 attempts)}).
 * The failed attempts travel from attempt to attempt as heartbeat details and come back with
 * the answer, so the trace lists them as a local run's does. Secrets are redacted from outputs
 * and messages before they leave the worker. A failed call is an ordinary outcome of a plan (the
 * plan's step fails), so its failures are benign: the SDK logs them at debug level only.
 */
final class CallAttempts {

    /** The {@link ApplicationFailure} type of a failed call. */
    static final String FAILURE_TYPE = "PlanvmCallFailed";

    private static final int MAX_MESSAGE = 4_000;

    private final CallChain chain;
    private final Redactor redactor;
    private final Heartbeats heartbeats;
    private final ExecutorService timed;
    private final long maxPayloadBytes;
    private final ObjectMapper json = JsonMappers.mapper(JsonLimits.STORE);

    /**
     * @param chain           the worker's call chain (permission, tool limits, the tool with its params check)
     * @param timed           runs attempts that have a timeout
     * @param maxPayloadBytes the largest output (as JSON) an activity may return
     */
    CallAttempts(
            CallChain chain, Redactor redactor, Heartbeats heartbeats, ExecutorService timed, long maxPayloadBytes) {
        this.chain = chain;
        this.redactor = redactor;
        this.heartbeats = heartbeats;
        this.timed = timed;
        this.maxPayloadBytes = maxPayloadBytes;
    }

    /** Runs this attempt of the call {@code call} builds (building it may fail too, e.g. on an unknown secret). */
    CallAnswer attempt(ActivityExecutionContext context, Supplier<Call> call, CallSettings settings) {
        int attempt = context.getInfo().getAttempt();
        List<AttemptRecord> attempts = earlier(context, attempt, settings);
        long start = System.nanoTime();
        Heartbeats.Beat beat =
                heartbeats.start(context, attempts.toArray(AttemptRecord[]::new), Thread.currentThread());
        try {
            Call built = call.get();
            JsonNode output = redactor.redact(run(built, settings.timeout()));
            checkSize(built, output);
            return new CallAnswer(output, attempts);
        } catch (ToolException e) {
            beat.close();
            throw failure(context, e, attempt, settings, attempts, Duration.ofNanos(System.nanoTime() - start));
        } catch (RuntimeException | StackOverflowError e) {
            beat.close();
            throw failure(
                    context,
                    new ToolException("the call failed unexpectedly: " + e, false),
                    attempt,
                    settings,
                    attempts,
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            beat.close();
        }
    }

    /** The failed attempts before this one: as the last attempt carried them, plus those whose worker was lost. */
    private static List<AttemptRecord> earlier(ActivityExecutionContext context, int attempt, CallSettings settings) {
        List<AttemptRecord> attempts = new ArrayList<>();
        if (attempt > 1) {
            context.getHeartbeatDetails(AttemptRecord[].class).ifPresent(carried -> {
                for (AttemptRecord record : carried) {
                    if (record.attempt() < attempt && attempts.size() < settings.maxAttempts()) {
                        attempts.add(record);
                    }
                }
            });
        }
        for (int lost = attempts.size() + 1; lost < attempt; lost++) {
            long initial = Math.max(1, settings.initialBackoffMs());
            long wait = Math.min(
                    lost > 40 ? Long.MAX_VALUE : initial << (lost - 1), Math.max(initial, settings.maxBackoffMs()));
            attempts.add(new AttemptRecord(
                    lost, "the attempt got no answer: its worker was lost or stopped answering", 0.0, wait));
        }
        return attempts;
    }

    private JsonNode run(Call call, Duration timeout) {
        if (timeout == null) {
            return chain.execute(call);
        }
        FutureTask<JsonNode> task = new FutureTask<>(
                io.opentelemetry.context.Context.current().wrap(() -> chain.execute(call))); // the span goes along
        timed.execute(task);
        try {
            return task.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            task.cancel(true);
            throw new ToolException("the call timed out after " + RemoteCalls.seconds(timeout), true);
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new ToolException(call.describe() + " failed unexpectedly: " + failed.getCause(), false);
        } catch (InterruptedException stopped) {
            task.cancel(true);
            throw new ToolException("the call was cancelled", false);
        }
    }

    private void checkSize(Call call, JsonNode output) {
        long size;
        try {
            size = json.writeValueAsBytes(output).length;
        } catch (JsonProcessingException e) {
            throw new ToolException(
                    "the output of " + call.describe() + " cannot be written as JSON: " + e.getOriginalMessage(),
                    false);
        }
        if (size > maxPayloadBytes) {
            throw new ToolException(
                    "the output of " + call.describe() + " is " + count(size) + " bytes as JSON; an activity"
                            + " result may hold at most " + count(maxPayloadBytes) + " (--max-payload-bytes)",
                    false);
        }
    }

    /** The activity failure of this attempt: retryable after planvm's wait, or final with the local retry link's message. */
    private ApplicationFailure failure(
            ActivityExecutionContext context,
            ToolException e,
            int attempt,
            CallSettings settings,
            List<AttemptRecord> attempts,
            Duration took) {
        String message = redactor.redact(String.valueOf(e.getMessage()));
        if (message.length() > MAX_MESSAGE) {
            message = message.substring(0, MAX_MESSAGE) + "…";
        }
        RetryPolicy policy = settings.retryPolicy();
        Duration retryAfter = e.retryAfter().orElse(Duration.ZERO);
        boolean last = !e.retriable() || attempt >= policy.maxAttempts();
        boolean tooLong = !last && retryAfter.compareTo(settings.maxRetryAfter()) > 0;
        double tookMs = took.toNanos() / 1_000_000.0;
        if (last || tooLong) {
            String full = message;
            if (tooLong) {
                full += " (the server asks to wait " + RemoteCalls.seconds(retryAfter)
                        + " before retrying, more than the " + RemoteCalls.seconds(settings.maxRetryAfter())
                        + " planvm waits)";
            }
            if (attempt > 1) {
                attempts.add(new AttemptRecord(attempt, message, tookMs, null));
                full += " (after " + attempt + " attempts)";
            }
            return ApplicationFailure.newBuilder()
                    .setMessage(full)
                    .setType(FAILURE_TYPE)
                    .setNonRetryable(true)
                    .setCategory(ApplicationErrorCategory.BENIGN)
                    .setDetails((Object) attempts.toArray(AttemptRecord[]::new))
                    .build();
        }
        Duration backoff = policy.backoff(attempt, ThreadLocalRandom.current().nextDouble());
        Duration wait = retryAfter.compareTo(backoff) > 0 ? retryAfter : backoff;
        attempts.add(new AttemptRecord(attempt, message, tookMs, wait.toMillis()));
        AttemptRecord[] carried = attempts.toArray(AttemptRecord[]::new);
        try {
            context.heartbeat(carried); // the next attempt reads them
        } catch (ActivityCompletionException over) {
            // the attempt is over anyway; the details also travel with the failure
        }
        return ApplicationFailure.newBuilder()
                .setMessage(message)
                .setType(FAILURE_TYPE)
                .setNonRetryable(false)
                .setCategory(ApplicationErrorCategory.BENIGN)
                .setNextRetryDelay(wait.isZero() ? Duration.ofMillis(1) : wait)
                .setDetails((Object) carried)
                .build();
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
