package dev.planvm.knowledge.internal;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import dev.planvm.json.BoundedHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient.Version;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * langchain4j's HTTP client SPI over the JDK client, for the embeddings endpoint: HTTP/1.1 (the JDK
 * client's HTTP/2 upgrade on {@code http://} makes some local servers drop the body), and the answer
 * read by {@link BoundedHttp}: one larger than {@code maxBodyBytes} is refused instead of read into
 * memory, and the read timeout covers the whole answer, body included. An error status throws
 * langchain4j's {@link HttpException} with at most the first 300 characters of the body.
 */
final class BoundedHttpClient implements HttpClient {

    private static final int MAX_ERROR_BODY = 300;

    private final java.net.http.HttpClient http;
    private final Duration readTimeout;
    private final long maxBodyBytes;

    private BoundedHttpClient(Builder builder) {
        java.net.http.HttpClient.Builder jdk =
                java.net.http.HttpClient.newBuilder().version(Version.HTTP_1_1);
        if (builder.connectTimeout != null) {
            jdk.connectTimeout(builder.connectTimeout);
        }
        this.http = jdk.build();
        this.readTimeout = builder.readTimeout;
        this.maxBodyBytes = builder.maxBodyBytes;
    }

    static Builder builder(long maxBodyBytes) {
        return new Builder(maxBodyBytes);
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        java.net.http.HttpRequest.Builder jdk =
                java.net.http.HttpRequest.newBuilder().uri(URI.create(request.url()));
        request.headers().forEach((name, values) -> {
            if (values != null) {
                values.forEach(value -> jdk.header(name, value));
            }
        });
        String body = request.body();
        jdk.method(
                request.method().name(),
                body == null
                        ? java.net.http.HttpRequest.BodyPublishers.noBody()
                        : java.net.http.HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (readTimeout != null) {
            jdk.timeout(readTimeout);
        }
        try {
            HttpResponse<byte[]> response = BoundedHttp.send(
                    http, jdk.build(), new BoundedHttp.Bounds(maxBodyBytes, MAX_ERROR_BODY * 4L, readTimeout));
            byte[] bytes = response.body();
            int status = response.statusCode();
            if (status < 200 || status >= 300) {
                String text = new String(bytes, StandardCharsets.UTF_8);
                throw new HttpException(
                        status, text.length() > MAX_ERROR_BODY ? text.substring(0, MAX_ERROR_BODY) + "…" : text);
            }
            return SuccessfulHttpResponse.builder()
                    .statusCode(status)
                    .headers(response.headers().map())
                    .body(bytes)
                    .build();
        } catch (BoundedHttp.TooLarge e) {
            throw new AnswerTooLarge(e.limit());
        } catch (HttpTimeoutException e) {
            throw new TimeoutException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        throw new UnsupportedOperationException("the embeddings client does not stream");
    }

    /** An answer larger than the limit. */
    static final class AnswerTooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final long limit;

        AnswerTooLarge(long limit) {
            super("the answer is larger than " + limit + " bytes", null, false, false);
            this.limit = limit;
        }
    }

    static final class Builder implements HttpClientBuilder {
        private final long maxBodyBytes;
        private Duration connectTimeout;
        private Duration readTimeout;

        private Builder(long maxBodyBytes) {
            this.maxBodyBytes = maxBodyBytes;
        }

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

        @Override
        public HttpClient build() {
            return new BoundedHttpClient(this);
        }
    }
}
