package dev.planvm.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one way planvm reads an HTTP answer it does not trust (a tool's service, an LLM, an embeddings
 * server, an OpenAPI document): the whole answer — headers <em>and</em> body — must arrive within one
 * deadline, and the body is read up to a size cap and no further. The JDK client's own request
 * timeout stops at the headers, so a server that trickles its body a byte at a time would otherwise
 * hold a call, or every command that loads a configuration, for ever.
 *
 * <ul>
 *   <li>a 2xx body larger than {@link Bounds#maxBytes()} fails with {@link TooLarge} as soon as the cap
 *       is passed (the rest is never read, the connection is dropped);</li>
 *   <li>any other status's body (only ever shown in a message) is cut at {@link Bounds#maxErrorBytes()};</li>
 *   <li>an answer not whole within {@link Bounds#timeout()} fails with an {@link HttpTimeoutException}
 *       "no whole answer within 30 s", and the exchange is cancelled.</li>
 * </ul>
 */
public final class BoundedHttp {

    private BoundedHttp() {}

    /**
     * What one answer may be.
     *
     * @param maxBytes      the largest 2xx body read, in bytes
     * @param maxErrorBytes how much of another status's body is kept
     * @param timeout       the longest the whole exchange may take, body included ({@code null}: no limit,
     *                      for a caller that bounds it otherwise)
     */
    public record Bounds(long maxBytes, long maxErrorBytes, Duration timeout) {
        public Bounds {
            if (maxBytes < 0 || maxErrorBytes < 0) {
                throw new IllegalArgumentException("a body cap must not be negative");
            }
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new IllegalArgumentException("the answer timeout must be positive, not " + timeout);
            }
        }
    }

    /** A 2xx body larger than the cap. */
    public static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        private final long limit;

        TooLarge(long limit) {
            super("the answer is larger than " + describeBytes(limit));
            this.limit = limit;
        }

        /** The cap that was passed, in bytes. */
        public long limit() {
            return limit;
        }
    }

    /**
     * Sends {@code request} and reads the whole answer within {@code bounds}.
     *
     * @throws TooLarge             when a 2xx body passes {@link Bounds#maxBytes()}
     * @throws HttpTimeoutException when the answer is not whole within {@link Bounds#timeout()} (or the
     *                              JDK's own request or connect timeout fires)
     * @throws IOException          when the exchange fails otherwise
     * @throws InterruptedException when the thread is interrupted (the exchange is cancelled)
     */
    public static HttpResponse<byte[]> send(HttpClient client, HttpRequest request, Bounds bounds)
            throws IOException, InterruptedException {
        Objects.requireNonNull(bounds, "bounds");
        AtomicReference<Body> reading = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request, info -> {
            boolean success = info.statusCode() >= 200 && info.statusCode() < 300;
            Body body = success ? new Body(bounds.maxBytes(), false) : new Body(bounds.maxErrorBytes(), true);
            reading.set(body);
            return body;
        });
        try {
            return bounds.timeout() == null
                    ? answer.get()
                    : answer.get(bounds.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException late) {
            stop(answer, reading.get());
            throw new HttpTimeoutException("no whole answer within " + seconds(bounds.timeout()));
        } catch (InterruptedException e) {
            stop(answer, reading.get());
            throw e;
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause() == null ? failed : failed.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }

    private static void stop(CompletableFuture<?> answer, Body body) {
        if (body != null) {
            body.cancel();
        }
        answer.cancel(true);
    }

    /** {@code 16 MiB}, {@code 512 KiB}, {@code 1,000 bytes}. */
    public static String describeBytes(long n) {
        if (n >= 1 << 20 && n % (1 << 20) == 0) {
            return n / (1 << 20) + " MiB";
        }
        if (n >= 1 << 10 && n % (1 << 10) == 0) {
            return n / (1 << 10) + " KiB";
        }
        return String.format(Locale.ROOT, "%,d bytes", n);
    }

    /** {@code 30 s}, {@code 0.5 s}. */
    static String seconds(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0
                ? millis / 1000 + " s"
                : java.math.BigDecimal.valueOf(millis)
                                .movePointLeft(3)
                                .stripTrailingZeros()
                                .toPlainString() + " s";
    }

    /**
     * A body read up to a cap, one buffer list at a time: past the cap the subscription is cancelled (the
     * rest is never read) and the body fails with {@link TooLarge} — or, when {@code cut}, keeps the first
     * {@code max} bytes.
     */
    private static final class Body implements HttpResponse.BodySubscriber<byte[]> {
        private final long max;
        private final boolean cut;
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private volatile Flow.Subscription subscription;
        private boolean done;

        Body(long max, boolean cut) {
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
                long room = max - bytes.size();
                if (buffer.remaining() > room) {
                    done = true;
                    subscription.cancel();
                    if (cut) {
                        copy(buffer, (int) room);
                        body.complete(bytes.toByteArray());
                    } else {
                        body.completeExceptionally(new TooLarge(max));
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

        /** Stops reading (the answer was late or the caller was interrupted). */
        void cancel() {
            Flow.Subscription current = subscription;
            if (current != null) {
                current.cancel();
            }
        }
    }
}
