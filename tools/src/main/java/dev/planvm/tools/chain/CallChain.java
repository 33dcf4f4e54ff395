package dev.planvm.tools.chain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.TokenCount;
import dev.planvm.tools.ToolException;
import dev.planvm.tools.call.Call;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.CallListener;
import dev.planvm.tools.call.FailedAttempt;
import dev.planvm.tools.call.GuardedListeners;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The one path every tool call and LLM condition takes: a list of {@link CallInterceptor}s ending
 * in a terminal link that does the real work. The standard order is assembled in one place,
 * {@link CallChains#standard}. Listeners observe each call beside the chain; one that throws is logged once
 * and ignored ({@link GuardedListeners}). Immutable and
 * thread-safe when its links are.
 */
public final class CallChain {

    private final List<CallInterceptor> links;
    private final List<CallListener> given;
    private final GuardedListeners<CallListener> listeners;

    /** @param links the interceptors in order; the last must answer every call without proceeding */
    public CallChain(List<CallInterceptor> links, List<CallListener> listeners) {
        if (links.isEmpty()) {
            throw new IllegalArgumentException("a call chain needs at least a terminal link");
        }
        this.links = List.copyOf(links);
        this.given = List.copyOf(listeners);
        this.listeners = new GuardedListeners<>(given);
    }

    /**
     * This chain with {@code link} in front of its first link (e.g. a link that answers calls started
     * earlier), observed by the same listeners.
     */
    public CallChain withFront(CallInterceptor link) {
        List<CallInterceptor> all = new java.util.ArrayList<>(links.size() + 1);
        all.add(Objects.requireNonNull(link, "link"));
        all.addAll(links);
        return new CallChain(all, given);
    }

    /** The same links, observed by no listener (for calls whose answers reach the listeners later, at their turn). */
    public CallChain withoutListeners() {
        return new CallChain(links, List.of());
    }

    /** Sends the call through the chain. Any failure surfaces as a {@link ToolException}. */
    public JsonNode execute(Call call) {
        return execute(call, attempt -> {});
    }

    /**
     * Sends the call through the chain and tells {@code failedAttempts} of every attempt that failed
     * before the call was answered or given up (the retry link's attempts), on the calling thread,
     * in order. Any failure surfaces as a {@link ToolException}.
     */
    public JsonNode execute(Call call, Consumer<FailedAttempt> failedAttempts) {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(failedAttempts, "failedAttempts");
        listeners.tell("callStarted", l -> l.callStarted(call));
        // what the call reports (tokens, streamed pieces) reaches the listeners too
        Call sent = listeners.isEmpty() ? call : call.withEvents(new Reported(call));
        long start = System.nanoTime();
        try {
            JsonNode output = new Position(0, sent, call, failedAttempts).proceed(sent);
            long took = System.nanoTime() - start;
            listeners.tell("callFinished", l -> l.callFinished(call, output, took));
            return output;
        } catch (ToolException e) {
            long took = System.nanoTime() - start;
            listeners.tell("callFailed", l -> l.callFailed(call, e, took));
            throw e;
        } catch (RuntimeException | Error e) {
            listeners.tell("callAbandoned", l -> l.callAbandoned(call, e));
            throw e;
        }
    }

    /** The chain as seen from link {@code index}. */
    private final class Position implements CallInterceptor.Chain {
        private final int index;
        private final Call call;
        /** The call as the listeners saw it start (links may pass on a changed copy): their events name this one. */
        private final Call observed;

        private final Consumer<FailedAttempt> failedAttempts;

        Position(int index, Call call, Call observed, Consumer<FailedAttempt> failedAttempts) {
            this.index = index;
            this.call = call;
            this.observed = observed;
            this.failedAttempts = failedAttempts;
        }

        @Override
        public Call call() {
            return call;
        }

        @Override
        public JsonNode proceed(Call next) {
            if (index >= links.size()) {
                throw new IllegalStateException("the last link of the call chain proceeded: it must answer");
            }
            JsonNode output = links.get(index).intercept(new Position(index + 1, next, observed, failedAttempts));
            if (output == null) {
                throw ToolException.permanent(next.describe() + " returned nothing (Java null)");
            }
            return output;
        }

        @Override
        public void attemptFailed(FailedAttempt attempt) {
            failedAttempts.accept(attempt);
            listeners.tell("attemptFailed", l -> l.attemptFailed(observed, attempt));
        }
    }

    /** The call's own events, then the listeners, told what the call reports. */
    private final class Reported implements CallEvents {
        private final Call observed;
        private final CallEvents own;

        Reported(Call observed) {
            this.observed = observed;
            this.own = observed.context().events();
        }

        @Override
        public void tokens(TokenCount tokens) {
            own.tokens(tokens);
            listeners.tell("tokens", l -> l.tokens(observed, tokens));
        }

        @Override
        public void streamStarted() {
            own.streamStarted();
            listeners.tell("streamStarted", l -> l.streamStarted(observed));
        }

        @Override
        public void chunk(String text) {
            own.chunk(text);
            listeners.tell("chunk", l -> l.chunk(observed, text));
        }

        @Override
        public void slotTaken(String limiter, int limit, long waitedNanos) {
            own.slotTaken(limiter, limit, waitedNanos);
            listeners.tell("slotTaken", l -> l.slotTaken(observed, limiter, limit, waitedNanos));
        }

        @Override
        public void limitChanged(String limiter, int limit, String cause) {
            own.limitChanged(limiter, limit, cause);
            listeners.tell("limitChanged", l -> l.limitChanged(observed, limiter, limit, cause));
        }
    }
}
