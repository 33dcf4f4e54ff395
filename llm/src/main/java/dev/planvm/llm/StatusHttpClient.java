package dev.planvm.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.planvm.json.BoundedHttp;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * langchain4j's HTTP client SPI over the JDK client, like its {@link JdkHttpClient} but keeping
 * what an error answer says about waiting: an HTTP error status throws (or, streamed, reports) an
 * {@link HttpStatusException} (an {@link HttpException}) that carries the wait the provider asked for
 * ({@link RetryHints}: {@code Retry-After} and the provider's own headers or body). It speaks HTTP/1.1 (the JDK
 * client's HTTP/2 upgrade on {@code http://} URLs makes uvicorn-based servers and LM Studio drop the
 * body). Multipart requests, which planvm does not send, go to a {@link JdkHttpClient}.
 * Failures are thrown the way {@link JdkHttpClient} throws them, so langchain4j maps them alike.
 *
 * <p>The answer is untrusted, so it is read by {@link BoundedHttp}: the read timeout covers the whole
 * exchange, body included (the JDK client's own request timeout stops at the headers, so a server
 * trickling its body would hang the call), the body is read up to a size cap and no further
 * ({@link LlmAnswerException#tooLarge}), an error answer's body is cut at {@value #ERROR_BODY_BYTES}
 * bytes (only a message shows it), and a
 * success whose body is not JSON fails as such ({@link LlmAnswerException#notJson}) rather than
 * deep inside langchain4j's parser. A streamed answer (server-sent events, or Ollama's lines of JSON, read by
 * the parser the model gives) is read up to the same size cap; the caller bounds its time
 * ({@code StreamedAnswer}).
 *
 * <p>It is planvm's one langchain4j HTTP adapter: the LLM providers use it, and so does the knowledge
 * module's embeddings endpoint ({@code OpenAiEmbedder}), which is why it is public; what it throws stays
 * package-private, and {@link #answerCapPassed} is how another module tells an answer refused for its size.
 */
public final class StatusHttpClient implements HttpClient {

    /** How much of an error answer's body is read: enough for its message. */
    static final int ERROR_BODY_BYTES = 64 * 1024;
    /** The answer cap unless configured otherwise: 16 MiB. */
    static final long DEFAULT_MAX_RESPONSE_BYTES = 16L * 1024 * 1024;

    private static final JsonFactory JSON = JsonMappers.factory(JsonLimits.STORE);
    private static final int PREVIEW = 200;

    private final java.net.http.HttpClient http;
    private final long maxResponseBytes;
    private final Duration readTimeout;
    private final Duration connectTimeout;
    private final Clock clock;
    private final RetryHints retryHints;
    private volatile JdkHttpClient fallback;

    private StatusHttpClient(Builder builder) {
        java.net.http.HttpClient.Builder jdk =
                java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1);
        if (builder.connectTimeout != null) {
            jdk.connectTimeout(builder.connectTimeout);
        }
        this.http = jdk.build();
        this.readTimeout = builder.readTimeout;
        this.maxResponseBytes = builder.maxResponseBytes;
        this.connectTimeout = builder.connectTimeout;
        this.clock = builder.clock;
        this.retryHints = builder.retryHints;
    }

    /** A client with the default answer cap (16 MiB); langchain4j sets the timeouts. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The size cap an answer passed, when {@code failure} (or one of its causes) is this client's refusal of an
     * answer larger than its cap; empty for any other failure.
     */
    public static OptionalLong answerCapPassed(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof LlmAnswerException answer && answer.kind() == LlmAnswerException.Kind.TOO_LARGE) {
                return OptionalLong.of(answer.limit());
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
            return fallback().execute(request);
        }
        HttpResponse<byte[]> response = exchange(toJdk(request));
        int status = response.statusCode();
        if (status < 200 || status >= 300) {
            throw failure(status, response.headers().map(), response.body());
        }
        if (!isJson(response.body())) {
            throw LlmAnswerException.notJson(status, preview(response.body()));
        }
        return SuccessfulHttpResponse.builder()
                .statusCode(status)
                .headers(response.headers().map())
                .body(response.body())
                .build();
    }

    /** Sends the request and reads the answer, all of it within the read timeout and the size cap ({@link BoundedHttp}). */
    private HttpResponse<byte[]> exchange(java.net.http.HttpRequest request) {
        try {
            return BoundedHttp.send(
                    http, request, new BoundedHttp.Bounds(maxResponseBytes, ERROR_BODY_BYTES, readTimeout));
        } catch (BoundedHttp.TooLarge e) {
            throw LlmAnswerException.tooLarge(e.limit());
        } catch (HttpTimeoutException timeout) {
            throw new TimeoutException(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code body} is one JSON value (read as a stream of tokens: no tree is built). */
    private static boolean isJson(byte[] body) {
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() == null) {
                return false;
            }
            parser.skipChildren();
            return parser.nextToken() == null;
        } catch (IOException e) {
            return false;
        }
    }

    private static String preview(byte[] body) {
        String start = new String(body, 0, Math.min(body.length, PREVIEW * 4), StandardCharsets.UTF_8);
        return start.isBlank() ? "(empty)" : LlmText.shorten(start, PREVIEW);
    }

    /** An error answer as langchain4j expects it, with the wait the provider asked for. */
    private HttpStatusException failure(int status, Map<String, List<String>> headers, byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        return new HttpStatusException(status, text, retryHints.read(headers, text, clock));
    }

    /**
     * A streamed answer: the request is sent on the JDK client's threads; an error status is reported to
     * {@code listener} as an {@link HttpStatusException} (its body read up to {@value #ERROR_BODY_BYTES} bytes),
     * a success is opened and handed, as a stream capped at the answer size, to {@code parser}.
     */
    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
            fallback().execute(request, parser, listener);
            return;
        }
        http.sendAsync(toJdk(request), java.net.http.HttpResponse.BodyHandlers.ofInputStream())
                .thenAccept(response -> {
                    try (InputStream body = response.body()) {
                        int status = response.statusCode();
                        if (status < 200 || status >= 300) {
                            byte[] error = body.readNBytes(ERROR_BODY_BYTES);
                            quietly(() -> listener.onError(
                                    failure(status, response.headers().map(), error)));
                            return;
                        }
                        quietly(() -> listener.onOpen(SuccessfulHttpResponse.builder()
                                .statusCode(status)
                                .headers(response.headers().map())
                                .build()));
                        parser.parse(new CappedStream(body, maxResponseBytes), listener);
                        quietly(listener::onClose);
                    } catch (CappedStream.TooLarge e) {
                        quietly(() -> listener.onError(LlmAnswerException.tooLarge(maxResponseBytes)));
                    } catch (IOException | RuntimeException e) {
                        quietly(() -> listener.onError(e));
                    }
                })
                .exceptionally(failure -> {
                    Throwable cause = failure.getCause() == null ? failure : failure.getCause();
                    quietly(() -> listener.onError(
                            cause instanceof HttpTimeoutException ? new TimeoutException(cause) : cause));
                    return null;
                });
    }

    /** Tells a listener something; a listener that throws does not stop the stream's thread. */
    private static void quietly(Runnable tell) {
        try {
            tell.run();
        } catch (RuntimeException ignored) {
            // the listener's own failure: nothing more to tell it
        }
    }

    /** An answer stream that fails once more than {@code limit} bytes were read from it. */
    private static final class CappedStream extends java.io.FilterInputStream {
        private final long limit;
        private long read;

        CappedStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            count(b < 0 ? 0 : 1);
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            count(Math.max(n, 0));
            return n;
        }

        private void count(int n) {
            read += n;
            if (read > limit) {
                throw new TooLarge();
            }
        }

        /** Thrown (unchecked, so parsers pass it on) when the cap is passed. */
        static final class TooLarge extends RuntimeException {
            private static final long serialVersionUID = 1L;

            TooLarge() {
                super("the streamed answer passed its size cap", null, false, false);
            }
        }
    }

    /** langchain4j's own client, for what planvm never sends; built on first need. */
    private JdkHttpClient fallback() {
        JdkHttpClient current = fallback;
        if (current == null) {
            synchronized (this) {
                current = fallback;
                if (current == null) {
                    current = JdkHttpClient.builder()
                            .httpClientBuilder(java.net.http.HttpClient.newBuilder()
                                    .version(java.net.http.HttpClient.Version.HTTP_1_1))
                            .connectTimeout(connectTimeout)
                            .readTimeout(readTimeout)
                            .build();
                    fallback = current;
                }
            }
        }
        return current;
    }

    private java.net.http.HttpRequest toJdk(HttpRequest request) {
        java.net.http.HttpRequest.Builder builder =
                java.net.http.HttpRequest.newBuilder().uri(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        builder.method(
                request.method().name(),
                request.body() == null
                        ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(request.body()));
        if (readTimeout != null) {
            builder.timeout(readTimeout);
        }
        return builder.build();
    }

    /** Configures a {@link StatusHttpClient}; langchain4j sets the timeouts. */
    public static final class Builder implements HttpClientBuilder {
        private Duration connectTimeout;
        private Duration readTimeout;
        private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;

        private Builder() {}

        private Clock clock = Clock.systemUTC();
        private RetryHints retryHints = RetryHints.STANDARD;

        @Override
        public Duration connectTimeout() {
            return connectTimeout;
        }

        @Override
        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = timeout;
            return this;
        }

        @Override
        public Duration readTimeout() {
            return readTimeout;
        }

        @Override
        public Builder readTimeout(Duration timeout) {
            this.readTimeout = timeout;
            return this;
        }

        /** The most bytes of an answer read (default 16 MiB); a larger one fails without being read to the end. */
        public Builder maxResponseBytes(long bytes) {
            this.maxResponseBytes = bytes;
            return this;
        }

        /** How the provider says how long to wait ({@link RetryHints#STANDARD} unless set). */
        Builder retryHints(RetryHints hints) {
            this.retryHints = hints;
            return this;
        }

        /** The clock an HTTP-date {@code Retry-After} is read against (tests fix it). */
        Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        @Override
        public StatusHttpClient build() {
            return new StatusHttpClient(this);
        }
    }
}
