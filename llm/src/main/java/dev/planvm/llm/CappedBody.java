package dev.planvm.llm;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A response body read up to a cap, one buffer list at a time: past the cap the subscription is
 * cancelled (the rest is never read) and the body fails with {@link LlmAnswerException#tooLarge} —
 * or, for an error answer only shown in a message, is cut at the cap.
 */
final class CappedBody implements HttpResponse.BodySubscriber<byte[]> {

    private final long max;
    private final boolean cut;
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private volatile Flow.Subscription subscription;
    private boolean done;

    /**
     * @param max the most bytes read
     * @param cut past {@code max}, keep the first {@code max} bytes instead of failing
     */
    CappedBody(long max, boolean cut) {
        this.max = max;
        this.cut = cut;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public synchronized void onNext(List<ByteBuffer> buffers) {
        if (done) {
            return;
        }
        for (ByteBuffer buffer : buffers) {
            int room = (int) Math.min(Integer.MAX_VALUE, max - bytes.size());
            if (buffer.remaining() > room) {
                done = true;
                subscription.cancel();
                if (cut) {
                    copy(buffer, room);
                    body.complete(bytes.toByteArray());
                } else {
                    body.completeExceptionally(LlmAnswerException.tooLarge(max));
                }
                return;
            }
            copy(buffer, buffer.remaining());
        }
        subscription.request(1);
    }

    private void copy(ByteBuffer buffer, int count) {
        byte[] chunk = new byte[count];
        buffer.get(chunk);
        bytes.write(chunk, 0, count);
    }

    @Override
    public synchronized void onError(Throwable error) {
        done = true;
        body.completeExceptionally(error);
    }

    @Override
    public synchronized void onComplete() {
        if (!done) {
            done = true;
            body.complete(bytes.toByteArray());
        }
    }

    /** Stops reading (the request timed out or was interrupted). */
    void cancel() {
        Flow.Subscription current = subscription;
        if (current != null) {
            current.cancel();
        }
    }
}
