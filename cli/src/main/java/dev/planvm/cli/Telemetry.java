package dev.planvm.cli;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;

/**
 * OpenTelemetry for one command line, from the standard environment ({@code OTEL_EXPORTER_OTLP_ENDPOINT},
 * {@code OTEL_TRACES_EXPORTER}, {@code OTEL_SERVICE_NAME}, ...). Off unless the environment asks for
 * traces: an OTLP endpoint or a traces exporter other than {@code none} (and {@code OTEL_SDK_DISABLED}
 * not {@code true}); then the SDK is set up on first need, and {@link #close} (at the end of the command,
 * or when the JVM stops, e.g. a stopped {@code serve}) exports what is left. When off, nothing of
 * OpenTelemetry is loaded: a plain {@code planvm run} starts as fast as before.
 */
final class Telemetry implements AutoCloseable {

    private final Map<String, String> environment;
    private TelemetrySdk sdk;
    private Thread hook;

    Telemetry(Map<String, String> environment) {
        this.environment = environment;
    }

    /** The telemetry of the command line {@code commandLine} belongs to (its root command's). */
    static Telemetry of(CommandLine commandLine) {
        CommandLine root = commandLine;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root.getCommand() instanceof PlanvmCommand planvm ? planvm.telemetry() : new Telemetry(Map.of());
    }

    /** Whether {@code environment} asks for traces. */
    static boolean enabled(Map<String, String> environment) {
        if ("true".equalsIgnoreCase(value(environment, "OTEL_SDK_DISABLED"))) {
            return false;
        }
        String exporter = value(environment, "OTEL_TRACES_EXPORTER");
        if (exporter != null) {
            return !exporter.toLowerCase(Locale.ROOT).equals("none");
        }
        return value(environment, "OTEL_EXPORTER_OTLP_ENDPOINT") != null
                || value(environment, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != null;
    }

    private static String value(Map<String, String> environment, String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? null : value.trim();
    }

    /** Whether this command's environment asks for traces. */
    boolean enabled() {
        return enabled(environment);
    }

    /**
     * The SDK's {@code OpenTelemetry}, set up on the first call; only when {@link #enabled()} (callers
     * check first, so that nothing of OpenTelemetry is loaded when tracing is off).
     */
    synchronized io.opentelemetry.api.OpenTelemetry openTelemetry() {
        if (!enabled()) {
            throw new IllegalStateException("the environment asks for no traces");
        }
        if (sdk == null) {
            sdk = TelemetrySdk.start(environment);
            hook = new Thread(this::close, "planvm-telemetry-flush");
            Runtime.getRuntime().addShutdownHook(hook);
        }
        return sdk.openTelemetry();
    }

    /** Exports the spans not sent yet and stops the SDK (when it was started). */
    @Override
    public synchronized void close() {
        if (sdk == null) {
            return;
        }
        sdk.close();
        sdk = null;
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping: the hook runs, and finds nothing left to do
            }
        }
        hook = null;
    }
}
