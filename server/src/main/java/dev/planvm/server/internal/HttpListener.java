package dev.planvm.server.internal;

import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One Jetty HTTP/1.1 listener, bounded for untrusted clients the same way on every JDK: request heads are
 * parsed without a thread (a slow client holds a connection, not a thread); at most {@link
 * Limits#maxConnections} connections (beyond, new ones wait in the OS's accept queue); at most {@link
 * Limits#maxThreads} threads, whose queue of work the connection cap bounds; a request head must arrive within {@link
 * Limits#headerTimeout} ({@link HeaderDeadline}); a quiet connection ends after {@link Limits#idleTimeout};
 * heads of at most {@link Limits#maxHeaderBytes}; Jetty's own error answers are {@link ErrorAnswers} (no
 * stack trace, no version).
 */
public final class HttpListener {

    /**
     * @param maxConnections connections open at once
     * @param maxThreads     threads of the pool (selector and acceptor included)
     * @param headerTimeout  how long a request head may take to arrive
     * @param idleTimeout    how long a connection may stay quiet
     * @param maxHeaderBytes the largest request head
     */
    public record Limits(
            int maxConnections, int maxThreads, Duration headerTimeout, Duration idleTimeout, int maxHeaderBytes) {
        public Limits {
            if (maxConnections < 1 || maxThreads < 8 || maxHeaderBytes < 1024) {
                throw new IllegalArgumentException("listener limits: at least 1 connection, 8 threads, 1 KiB heads");
            }
        }
    }

    private final Server jetty;
    private final ServerConnector connector;
    private final HeaderDeadline deadline;
    private final NetworkConnectionLimit connections;

    private HttpListener(
            Server jetty, ServerConnector connector, HeaderDeadline deadline, NetworkConnectionLimit connections) {
        this.jetty = jetty;
        this.connector = connector;
        this.deadline = deadline;
        this.connections = connections;
    }

    /**
     * Listens on {@code bind}:{@code port} (0: any free port) and serves {@code handler}.
     *
     * @throws IOException when the address cannot be bound
     */
    public static HttpListener start(String bind, int port, Limits limits, String threadName, Handler handler)
            throws IOException {
        // Jetty's own growable queue: a bounded one makes Jetty warn at every start (a job it cannot queue is
        // lost); the work it holds is bounded by the connection cap below, not by the queue.
        QueuedThreadPool pool = new QueuedThreadPool(
                limits.maxThreads(),
                Math.min(4, limits.maxThreads()),
                60_000,
                BlockingArrayQueue.newInstance(64, Integer.MAX_VALUE));
        pool.setName(threadName);
        pool.setDaemon(true);
        pool.setReservedThreads(0);
        Server jetty = new Server(pool);
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        config.setRequestHeaderSize(limits.maxHeaderBytes());
        ServerConnector connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(config));
        connector.setHost(bind);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        connector.setAcceptQueueSize(256);
        jetty.addConnector(connector);
        NetworkConnectionLimit connections = new NetworkConnectionLimit(limits.maxConnections(), connector);
        jetty.addBean(connections);
        jetty.setErrorHandler(new ErrorAnswers());
        jetty.setHandler(handler);
        HeaderDeadline deadline = new HeaderDeadline(connector, limits.headerTimeout());
        try {
            jetty.start();
            deadline.start();
        } catch (Exception e) {
            stopQuietly(jetty);
            if (e instanceof IOException io) {
                throw io;
            }
            throw new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
        return new HttpListener(jetty, connector, deadline, connections);
    }

    /** The port it listens on. */
    public int port() {
        return connector.getLocalPort();
    }

    /** Connections open now. */
    public int connections() {
        return connections.getNetworkConnectionCount();
    }

    /** Connections ended because their request head did not arrive in time. */
    public long cut() {
        return deadline.cut();
    }

    /** Stops listening, ends every connection and the threads. */
    public void stop() {
        try {
            deadline.stop();
        } catch (Exception ignored) {
            // stopping anyway
        }
        stopQuietly(jetty);
    }

    private static void stopQuietly(Server jetty) {
        try {
            jetty.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception ignored) {
            // stopping anyway
        }
    }
}
