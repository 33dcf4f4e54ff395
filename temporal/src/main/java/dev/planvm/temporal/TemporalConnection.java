package dev.planvm.temporal;

import dev.planvm.vm.run.FailureKind;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.common.converter.DataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * A connection to a Temporal server ({@code temporal server start-dev} or a cluster) and a
 * client of one namespace on it, whose data converter redacts the secrets it is given.
 *
 * <pre>{@code
 * try (TemporalConnection temporal = TemporalConnection.open("127.0.0.1:7233", "default", Map.of())) {
 *     TemporalPlans plans = new TemporalPlans(temporal.client(), "planvm");
 * }
 * }</pre>
 */
public final class TemporalConnection implements AutoCloseable {

    /** How long opening a connection waits for the server to answer. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final String target;
    private final WorkflowServiceStubs stubs;
    private final WorkflowClient client;

    private TemporalConnection(String target, WorkflowServiceStubs stubs, WorkflowClient client) {
        this.target = target;
        this.stubs = stubs;
        this.client = client;
    }

    /**
     * Connects to {@code target} ({@code HOST:PORT}) and checks that the server answers.
     *
     * @param secrets secrets this process holds (name to value), redacted from every payload it sends
     * @throws TemporalException when the server does not answer within {@link #CONNECT_TIMEOUT}
     */
    public static TemporalConnection open(String target, String namespace, Map<String, String> secrets) {
        return open(target, namespace, RedactingDataConverter.of(secrets), CONNECT_TIMEOUT);
    }

    /** {@link #open(String, String, Map)} with any data converter and connect timeout. */
    public static TemporalConnection open(String target, String namespace, DataConverter converter, Duration timeout) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(namespace, "namespace");
        WorkflowServiceStubs stubs;
        try {
            stubs = WorkflowServiceStubs.newConnectedServiceStubs(
                    WorkflowServiceStubsOptions.newBuilder().setTarget(target).build(), timeout);
        } catch (RuntimeException e) {
            throw new TemporalException(
                    FailureKind.UNAVAILABLE, "cannot reach the Temporal server at " + target + ": " + firstLine(e), e);
        }
        WorkflowClient client = WorkflowClient.newInstance(
                stubs,
                WorkflowClientOptions.newBuilder()
                        .setNamespace(namespace)
                        .setDataConverter(converter)
                        .build());
        return new TemporalConnection(target, stubs, client);
    }

    public WorkflowClient client() {
        return client;
    }

    /** The server, as {@code HOST:PORT}. */
    public String target() {
        return target;
    }

    @Override
    public void close() {
        stubs.shutdown();
    }

    static String firstLine(Throwable e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
