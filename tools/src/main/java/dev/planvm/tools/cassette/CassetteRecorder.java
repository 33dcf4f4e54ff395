package dev.planvm.tools.cassette;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ConditionResult;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import java.util.ArrayList;
import java.util.List;

/**
 * Record: passes every call on and records what came back, with how long it took, into a
 * {@link Recording}. Only answered calls are recorded (a failed call has no output to replay), unless
 * the recording keeps failures ({@link Recording#keepingFailures()}).
 * What a call reports on the way is recorded too: the tokens it spent (every attempt's), and the
 * pieces of a streamed answer with when each arrived (the answered attempt's). Thread-safe;
 * interactions are kept in the order their calls were answered.
 */
public final class CassetteRecorder implements CallInterceptor {

    private final Recording recording;
    private final Redactor redactor;

    /** A recorder into {@code recording} that keeps secrets out of it (see {@link Redactor}). */
    public CassetteRecorder(Recording recording, Redactor redactor) {
        this.recording = recording;
        this.redactor = redactor;
    }

    @Override
    public JsonNode intercept(Chain chain) {
        Call call = chain.call();
        long start = System.nanoTime();
        Tee tee = new Tee(call.context().events(), start);
        JsonNode output;
        try {
            output = chain.proceed(call.withEvents(tee));
        } catch (ToolException failure) {
            if (recording.keepsFailures() && call instanceof Call.ToolCall tool && !cancelled(failure)) {
                long durationMs = (System.nanoTime() - start) / 1_000_000;
                recording.add(new Interaction.ToolInteraction(
                        tool.tool(),
                        redactor.redact(tool.params()),
                        com.fasterxml.jackson.databind.node.NullNode.getInstance(),
                        durationMs,
                        List.of(),
                        tee.tokens(),
                        redactor.redact(failure.getMessage() == null ? "failed" : failure.getMessage()),
                        failure.kind(),
                        false));
            }
            throw failure;
        }
        long durationMs = (System.nanoTime() - start) / 1_000_000;
        Interaction interaction;
        if (call instanceof Call.ToolCall tool) {
            interaction = new Interaction.ToolInteraction(
                    tool.tool(),
                    redactor.redact(tool.params()),
                    redactor.redact(output),
                    durationMs,
                    tee.chunks(redactor, durationMs),
                    tee.tokens());
        } else {
            Call.ConditionCall condition = (Call.ConditionCall) call;
            ConditionResult result = ConditionResult.fromJson(output);
            interaction = new Interaction.ConditionInteraction(
                    redactor.redact(condition.prompt()),
                    redactor.redact(condition.conditionContext()),
                    result.result(),
                    redactor.redact(result.explanation()),
                    durationMs,
                    tee.tokens());
        }
        recording.add(interaction);
        return output;
    }

    /** Whether the call failed because it was cancelled: its thread was interrupted. */
    private static boolean cancelled(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof InterruptedException
                    || t instanceof java.io.InterruptedIOException
                    || t instanceof java.nio.channels.ClosedByInterruptException
                    || t instanceof java.util.concurrent.CancellationException) {
                return true;
            }
        }
        return false;
    }

    /** Passes a call's events on and keeps what the recording needs of them. */
    private static final class Tee implements CallEvents {
        private final CallEvents downstream;
        private final long start;
        private final List<Interaction.Chunk> chunks = new ArrayList<>();
        private TokenCount tokens = TokenCount.ZERO;

        Tee(CallEvents downstream, long start) {
            this.downstream = downstream;
            this.start = start;
        }

        @Override
        public void tokens(TokenCount spent) {
            synchronized (this) {
                tokens = tokens.plus(spent);
            }
            downstream.tokens(spent);
        }

        @Override
        public void streamStarted() {
            synchronized (this) {
                chunks.clear();
            }
            downstream.streamStarted();
        }

        @Override
        public void chunk(String text) {
            synchronized (this) {
                chunks.add(new Interaction.Chunk(text, (System.nanoTime() - start) / 1_000_000));
            }
            downstream.chunk(text);
        }

        @Override
        public void slotTaken(String limiter, int limit, long waitedNanos) {
            downstream.slotTaken(limiter, limit, waitedNanos);
        }

        @Override
        public void limitChanged(String limiter, int limit, String cause) {
            downstream.limitChanged(limiter, limit, cause);
        }

        synchronized TokenCount tokens() {
            return tokens;
        }

        /**
         * The pieces, redacted one by one (a secret split across pieces is caught by redacting the
         * output, which holds the whole answer), each no later than the call's duration.
         */
        synchronized List<Interaction.Chunk> chunks(Redactor redactor, long durationMs) {
            List<Interaction.Chunk> kept = new ArrayList<>(chunks.size());
            for (Interaction.Chunk chunk : chunks) {
                kept.add(new Interaction.Chunk(redactor.redact(chunk.text()), Math.min(chunk.atMs(), durationMs)));
            }
            return kept;
        }
    }
}
