package dev.planvm.llm;

import dev.planvm.tools.RetryAfter;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.io.IOException;
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
 */
final class StatusHttpClient implements HttpClient {

    private final java.net.http.HttpClient http;
    private final Duration readTimeout;
    private final Duration connectTimeout;
    private final Clock clock;
    private volatile JdkHttpClient fallback;

    private StatusHttpClient(Builder builder) {
        java.net.http.HttpClient.Builder jdk = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1);
        if (builder.connectTimeout != null) {
            jdk.connectTimeout(builder.connectTimeout);
        }
        this.http = jdk.build();
        this.readTimeout = builder.readTimeout;
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
        try {
            HttpResponse<byte[]> response = http.send(toJdk(request), HttpResponse.BodyHandlers.ofByteArray());
            int status = response.statusCode();
            if (status < 200 || status >= 300) {
                throw new HttpStatusException(status, new String(response.body(), StandardCharsets.UTF_8),
                        RetryAfter.from(response.headers().map(), clock));
            }
            return SuccessfulHttpResponse.builder()
                    .statusCode(status)
                    .headers(response.headers().map())
                    .body(response.body())
                    .build();
        } catch (HttpTimeoutException e) {
            throw new TimeoutException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuntimeException(e);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
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
                            .httpClientBuilder(java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1))
                            .connectTimeout(connectTimeout).readTimeout(readTimeout).build();
                    fallback = current;
                }
            }
        }
        return current;
    }

    private java.net.http.HttpRequest toJdk(HttpRequest request) {
        java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder().uri(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(value -> builder.header(name, value));
            }
        });
        builder.method(request.method().name(), request.body() == null
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
