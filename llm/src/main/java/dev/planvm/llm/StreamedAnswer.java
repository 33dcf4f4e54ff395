package dev.planvm.llm;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.chat.response.StreamingHandle;
import dev.planvm.tools.CallEvents;
import dev.planvm.tools.ToolException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One streamed answer: sends the request, reports each piece to the call's events as it arrives,
 * and returns the whole text once the server says it is done. Bounded: an answer longer than
 * {@link #MAX_CHARS} is cut off and fails, and an answer that is not whole within the timeout fails the
 * call (retriable) — the timeout covers the whole answer, as it does for an answer that is not
 * streamed, so a server trickling a space every fifth of a second cannot hold the call — as does a
 * stream that ends before the server says the answer is done (no finish reason). Pieces that arrive
 * after the call gave up are not reported.
 */
final class StreamedAnswer {

    /** The longest streamed answer, in characters (a plan is at most 5 MiB). */
    static final int MAX_CHARS = 6 * 1024 * 1024;

    private final StreamingChatModel model;
    private final LlmFailures failures;
    private final Duration timeout;

    /** @param timeout how long the whole answer may take, from the request to the server's last event */
    StreamedAnswer(StreamingChatModel model, LlmFailures failures, Duration timeout) {
        this.model = model;
        this.failures = failures;
        this.timeout = timeout;
    }

    String ask(List<ChatMessage> messages, ResponseFormat format, CallEvents events) {
        ChatRequest.Builder request = ChatRequest.builder().messages(messages);
        if (format != null) {
            request.responseFormat(format);
        }
        long start = System.nanoTime();
        Stream stream = new Stream(events, start + timeout.toNanos());
        events.streamStarted();
        try {
            model.chat(request.build(), stream);
            ChatResponse response = stream.await();
            LlmClient.report(response.tokenUsage(), events);
            if (response.finishReason() == null) {
                throw ToolException.transientFailure(
                        "the LLM's streamed answer broke off after "
                                + String.format("%,d", stream.text().length())
                                + " characters, before the server said it was done",
                        null);
            }
            String text =
                    response.aiMessage() == null ? null : response.aiMessage().text();
            return text != null ? text : stream.text();
        } catch (ToolException e) {
            throw e;
        } catch (RuntimeException e) {
            throw failures.map(e, Duration.ofNanos(System.nanoTime() - start));
        } finally {
            stream.close();
        }
    }

    /** Receives the server's events (on the HTTP client's thread) and hands them to the waiting caller. */
    private final class Stream implements StreamingChatResponseHandler {
        private final CallEvents events;
        private final CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        private final StringBuilder text = new StringBuilder();
        private volatile StreamingHandle handle;
        private final long deadline;
        private boolean closed;

        /** @param deadline when the whole answer must have arrived ({@link System#nanoTime()}) */
        Stream(CallEvents events, long deadline) {
            this.events = events;
            this.deadline = deadline;
        }

        @Override
        public void onPartialResponse(PartialResponse partial, PartialResponseContext context) {
            handle = context.streamingHandle();
            String piece = partial.text();
            if (piece == null || piece.isEmpty()) {
                return;
            }
            synchronized (this) {
                if (closed) {
                    cancel();
                    return;
                }
                if (text.length() + piece.length() > MAX_CHARS) {
                    cancel();
                    done.completeExceptionally(ToolException.permanent("the LLM's streamed answer is longer than "
                            + String.format("%,d", MAX_CHARS) + " characters; the planner stopped reading it"));
                    return;
                }
                text.append(piece);
                events.chunk(piece);
            }
        }

        @Override
        public void onCompleteResponse(ChatResponse response) {
            done.complete(response);
        }

        @Override
        public void onError(Throwable error) {
            done.completeExceptionally(error);
        }

        ChatResponse await() {
            try {
                try {
                    return done.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException late) {
                    cancel();
                    throw ToolException.transientFailure(
                            "the LLM's streamed answer did not end within " + LlmText.seconds(timeout) + " ("
                                    + String.format("%,d", text().length()) + " characters arrived)",
                            null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                throw new ToolException("the LLM call was interrupted", false, e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof ToolException tool) {
                    throw tool;
                }
                throw cause instanceof RuntimeException runtime ? runtime : new RuntimeException(cause);
            }
        }

        synchronized String text() {
            return text.toString();
        }

        /** No piece is reported any more; the stream is cancelled if it is still going. */
        void close() {
            synchronized (this) {
                closed = true;
            }
            if (!done.isDone()) {
                cancel();
            }
        }

        private void cancel() {
            StreamingHandle current = handle;
            if (current != null && !current.isCancelled()) {
                try {
                    current.cancel();
                } catch (RuntimeException ignored) {
                    // already gone
                }
            }
        }
    }
}
