package dev.planvm.server.http;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How {@link PlanServer} listens, whom it answers, and how it bounds its work.
 *
 * @param bind                  the address to listen on; anything but a loopback address needs a {@code token}
 * @param port                  the port (0: any free one)
 * @param token                 the bearer token every request but {@code GET /healthz} must carry, or {@code null} for
 *                              none (loopback only); at least 16 characters
 * @param maxBodyBytes          the largest request body read; a larger one is answered 413
 * @param maxRequests           requests handled at once; beyond, 429 with {@code Retry-After}
 * @param maxEventStreams       event streams ({@code GET /v1/runs/{id}/events}) open at once; beyond, 429
 * @param maxWait               the longest {@code ?wait=true&timeout=S} a request may wait for its run
 * @param shutdownGrace         how long a stopping server lets active runs reach a commit point
 * @param allowHosts            names a request's {@code Host} may give besides the bound address (and
 *                              {@code localhost} on loopback): {@code name} (any port) or {@code name:port}
 * @param allowOrigins          web origins ({@code scheme://host[:port]}) whose pages may call the API (with CORS);
 *                              a request from any other origin is refused (403). None by default
 * @param maxConnections        connections open at once; beyond, new ones wait in the OS's accept queue
 * @param headerTimeout         how long a request head (request line and headers) may take to arrive; a slower
 *                              client is disconnected
 * @param bodyTimeout           how long a request body may take to arrive once its head did; a slower one is 408
 */
public record ServerSettings(
        String bind,
        int port,
        String token,
        long maxBodyBytes,
        int maxRequests,
        int maxEventStreams,
        Duration maxWait,
        Duration shutdownGrace,
        List<String> allowHosts,
        List<String> allowOrigins,
        int maxConnections,
        Duration headerTimeout,
        Duration bodyTimeout) {

    /** The shortest token accepted. */
    public static final int MIN_TOKEN_LENGTH = 16;

    /**
     * 127.0.0.1:8080, no token, 8 MiB bodies, 256 requests and 64 event streams at once, waits up to 300 s, 10 s
     * grace, no other host or origin, 1,024 connections, heads within 10 s, bodies within 60 s.
     */
    public static final ServerSettings DEFAULT = new ServerSettings(
            "127.0.0.1",
            8080,
            null,
            8L << 20,
            256,
            64,
            Duration.ofSeconds(300),
            Duration.ofSeconds(10),
            List.of(),
            List.of(),
            1024,
            Duration.ofSeconds(10),
            Duration.ofSeconds(60));

    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("the port must be between 0 and 65535, not " + port);
        }
        if (token != null && token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException(
                    "the bearer token must have at least " + MIN_TOKEN_LENGTH + " characters");
        }
        if (maxBodyBytes < 1024 || maxRequests < 1 || maxEventStreams < 1 || maxConnections < 1) {
            throw new IllegalArgumentException("server limits must be positive (bodies of at least 1 KiB)");
        }
        Objects.requireNonNull(maxWait, "maxWait");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        allowHosts = List.copyOf(allowHosts);
        allowOrigins = List.copyOf(allowOrigins);
        if (headerTimeout.isNegative() || headerTimeout.isZero() || bodyTimeout.isNegative() || bodyTimeout.isZero()) {
            throw new IllegalArgumentException("the header and body timeouts must be positive");
        }
    }

    /** A builder starting from {@link #DEFAULT}: set what differs, then {@link Builder#build()}. */
    public static Builder builder() {
        return DEFAULT.toBuilder();
    }

    /** A builder starting from these settings. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * Settings changed one at a time: a record of 13 components gets one builder rather than 13 withers each
     * repeating every argument. The settings are checked together when built (an {@link IllegalArgumentException}
     * names what is wrong), so no order of setters meets a half-changed, invalid value.
     */
    public static final class Builder {
        private String bind;
        private int port;
        private String token;
        private long maxBodyBytes;
        private int maxRequests;
        private int maxEventStreams;
        private Duration maxWait;
        private Duration shutdownGrace;
        private List<String> allowHosts;
        private List<String> allowOrigins;
        private int maxConnections;
        private Duration headerTimeout;
        private Duration bodyTimeout;

        private Builder(ServerSettings from) {
            this.bind = from.bind;
            this.port = from.port;
            this.token = from.token;
            this.maxBodyBytes = from.maxBodyBytes;
            this.maxRequests = from.maxRequests;
            this.maxEventStreams = from.maxEventStreams;
            this.maxWait = from.maxWait;
            this.shutdownGrace = from.shutdownGrace;
            this.allowHosts = from.allowHosts;
            this.allowOrigins = from.allowOrigins;
            this.maxConnections = from.maxConnections;
            this.headerTimeout = from.headerTimeout;
            this.bodyTimeout = from.bodyTimeout;
        }

        /** The address to listen on; anything but a loopback address needs a {@link #token}. */
        public Builder bind(String value) {
            this.bind = value;
            return this;
        }

        /** The port (0: any free one). */
        public Builder port(int value) {
            this.port = value;
            return this;
        }

        /** The bearer token (at least {@value ServerSettings#MIN_TOKEN_LENGTH} characters), or {@code null} for none. */
        public Builder token(String value) {
            this.token = value;
            return this;
        }

        /** The largest request body read (at least 1 KiB). */
        public Builder maxBodyBytes(long value) {
            this.maxBodyBytes = value;
            return this;
        }

        /** Requests handled at once. */
        public Builder maxRequests(int value) {
            this.maxRequests = value;
            return this;
        }

        /** Event streams open at once. */
        public Builder maxEventStreams(int value) {
            this.maxEventStreams = value;
            return this;
        }

        /** The longest wait a request may ask for. */
        public Builder maxWait(Duration value) {
            this.maxWait = value;
            return this;
        }

        /** How long a stopping server lets active runs reach a commit point. */
        public Builder shutdownGrace(Duration value) {
            this.shutdownGrace = value;
            return this;
        }

        /** Names a request's {@code Host} may give besides the bound address. */
        public Builder allowHosts(List<String> value) {
            this.allowHosts = value;
            return this;
        }

        /** Web origins whose pages may call the API. */
        public Builder allowOrigins(List<String> value) {
            this.allowOrigins = value;
            return this;
        }

        /** Connections open at once. */
        public Builder maxConnections(int value) {
            this.maxConnections = value;
            return this;
        }

        /** How long a request head may take to arrive. */
        public Builder headerTimeout(Duration value) {
            this.headerTimeout = value;
            return this;
        }

        /** How long a request body may take to arrive once its head did. */
        public Builder bodyTimeout(Duration value) {
            this.bodyTimeout = value;
            return this;
        }

        /** The settings, checked; an {@link IllegalArgumentException} says what is wrong. */
        public ServerSettings build() {
            return new ServerSettings(
                    bind,
                    port,
                    token,
                    maxBodyBytes,
                    maxRequests,
                    maxEventStreams,
                    maxWait,
                    shutdownGrace,
                    allowHosts,
                    allowOrigins,
                    maxConnections,
                    headerTimeout,
                    bodyTimeout);
        }
    }

    @Override
    public String toString() { // never the token
        return "ServerSettings[bind=" + bind + ", port=" + port + ", token=" + (token == null ? "none" : "set")
                + ", maxBodyBytes=" + maxBodyBytes + ", maxRequests=" + maxRequests + ", maxEventStreams="
                + maxEventStreams + ", allowHosts=" + allowHosts + ", allowOrigins=" + allowOrigins
                + ", maxConnections=" + maxConnections + ", headerTimeout=" + headerTimeout + ", bodyTimeout="
                + bodyTimeout + "]";
    }
}
