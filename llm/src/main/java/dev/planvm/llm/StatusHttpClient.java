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
import dev.planvm.tools.RetryAfter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;

/**
 * langchain4j's HTTP client SPI over the JDK client, like its {@link JdkHttpClient} but keeping
 * what an error answer's headers say: an HTTP error status throws an {@link HttpStatusException}
 * (an {@link HttpException}) that carries the {@code Retry-After} wait. It speaks HTTP/1.1 (the JDK
 * client's HTTP/2 upgrade on {@code http://} URLs makes uvicorn-based servers and LM Studio drop the
 * body). Streaming and multipart requests, which planvm does not send, go to a {@link JdkHttpClient}.
 * Failures are thrown the way {@link JdkHttpClient} throws them, so langchain4j maps them alike.
 *
 * <p>The answer is untrusted, so it is read by {@link BoundedHttp}: the read timeout covers the whole
 * exchange, body included (the JDK client's own request timeout stops at the headers, so a server
 * trickling its body would hang the call), the body is read up to a size cap and no further
 * ({@link LlmAnswerException#tooLarge}), an error answer's body is cut at {@value #ERROR_BODY_BYTES}
 * bytes (only a message shows it), and a
 * success whose body is not JSON fails as such ({@link LlmAnswerException#notJson}) rather than
 * deep inside langchain4j's parser.
 */
final class StatusHttpClient implements HttpClient {

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
    }

    static Builder builder() {
        return new Builder();
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        if (!request.formDataFields().isEmpty() || !request.formDataFiles().isEmpty()) {
            return fallback().execute(request);
        }
        HttpResponse<byte[]> response = exchange(toJdk(request));
        int status = response.statusCode();
        if (status < 200 || status >= 300) {
            throw new HttpStatusException(
                    status,
                    new String(response.body(), StandardCharsets.UTF_8),
                    RetryAfter.from(response.headers().map(), clock));
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

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        fallback().execute(request, parser, listener);
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
    static final class Builder implements HttpClientBuilder {
        private Duration connectTimeout;
        private Duration readTimeout;
        private long maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
        private Clock clock = Clock.systemUTC();

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
        Builder maxResponseBytes(long bytes) {
            this.maxResponseBytes = bytes;
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
