package dev.planvm.integrations.internal;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/** A response body read into memory up to a bound; a longer body fails with {@link TooLarge} and the exchange is cancelled. */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

    /** A body longer than the bound. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(long max) {
            super("the answer is larger than " + describe(max));
        }
    }

    private final long max;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private Flow.Subscription subscription;

    LimitedBody(long max) {
        this.max = max;
    }

    static HttpResponse.BodyHandler<byte[]> handler(long max) {
        return info -> new LimitedBody(max);
    }

    @Override
    public CompletionStage<byte[]> getBody() {
        return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        for (ByteBuffer item : items) {
            if (bytes.size() + (long) item.remaining() > max) {
                subscription.cancel();
                result.completeExceptionally(new TooLarge(max));
                return;
            }
            byte[] chunk = new byte[item.remaining()];
            item.get(chunk);
            bytes.writeBytes(chunk);
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable throwable) {
        result.completeExceptionally(throwable);
    }

    @Override
    public void onComplete() {
        result.complete(bytes.toByteArray());
    }

    static String describe(long bytes) {
        return bytes >= 1 << 20 && bytes % (1 << 20) == 0
                ? (bytes >> 20) + " MiB"
                : bytes >= 1024 && bytes % 1024 == 0 ? (bytes >> 10) + " KiB" : bytes + " bytes";
    }
}
