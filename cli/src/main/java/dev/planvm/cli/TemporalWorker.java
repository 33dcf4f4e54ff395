package dev.planvm.cli;

import dev.planvm.temporal.PlanWorkers;
import dev.planvm.temporal.RedactingDataConverter;
import dev.planvm.temporal.TemporalConnection;
import dev.planvm.temporal.TemporalException;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.config.LoadedTools;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;

/**
 * What {@code planvm worker} does: loads the tools configuration, connects with a client that
 * redacts this worker's secrets, starts the workers and waits until the process is asked to stop
 * (or the command's thread is interrupted), then stops them, letting running calls finish. Loaded
 * only when Temporal is on the class path.
 */
final class TemporalWorker {

    private TemporalWorker() {}

    static int run(WorkerCommand options, Map<String, String> environment, CommandLine commandLine) {
        PrintWriter err = commandLine.getErr();
        Map<String, String> secrets = secrets(options, environment, commandLine);
        if (options.heartbeatSeconds < 1) {
            throw new CommandLine.ParameterException(commandLine, "--heartbeat-timeout must be at least 1 second");
        }
        LoadedTools loaded = options.config.load(environment, secrets);
        Map<String, String> redacted = new LinkedHashMap<>(secrets);
        loaded.secretsUsed().forEach((name, value) -> {
            if (value.length() >= Redactor.MIN_LENGTH) {
                redacted.putIfAbsent(name, value);
            }
        });
        RedactingLogs.use(Redactor.of(redacted));
        TemporalConnection connection;
        try {
            connection = TemporalConnection.open(
                    options.target,
                    options.namespace,
                    RedactingDataConverter.of(redacted),
                    TemporalConnection.CONNECT_TIMEOUT);
        } catch (TemporalException e) {
            loaded.close();
            err.println("planvm worker: " + e.getMessage());
            return ExitCodes.RUNTIME_FAILURE;
        }
        PlanWorkers workers;
        try {
            PlanWorkers.Builder builder = PlanWorkers.builder(connection.client())
                    .taskQueue(options.taskQueue)
                    .tools(loaded, options.toolPolicy.policy(commandLine))
                    .secrets(redacted)
                    .toolPolicy(options.toolPolicy.policy(commandLine))
                    .workflows(!options.noWorkflows)
                    .activities(!options.noActivities)
                    .heartbeatTimeout(Duration.ofSeconds(options.heartbeatSeconds))
                    .maxPayloadBytes(options.maxPayloadBytes)
                    .maxHistoryBytes(options.maxHistoryBytes);
            options.routes.forEach(builder::route);
            options.toolConcurrency.forEach(builder::toolConcurrency);
            if (options.maxConcurrentActivities != null) {
                builder.maxConcurrentActivities(options.maxConcurrentActivities);
            }
            if (options.activitiesPerSecond != null) {
                builder.activitiesPerSecond(options.activitiesPerSecond);
            }
            Telemetry telemetry = Telemetry.of(commandLine);
            if (telemetry.enabled()) { // OTEL_* set: the worker's runs and activities send spans
                builder.openTelemetry(telemetry.openTelemetry());
            }
            workers = builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            loaded.close();
            connection.close();
            throw new CommandLine.ParameterException(commandLine, e.getMessage());
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(
                () -> {
                    workers.close();
                    connection.close();
                    stopped.countDown();
                },
                "planvm-worker-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        workers.start();
        err.println("planvm worker: polling task queue '" + options.taskQueue + "' of namespace '" + options.namespace
                + "' at "
                + options.target + " ("
                + (options.noWorkflows ? "" : "plan workflows" + (options.noActivities ? "" : ", "))
                + (options.noActivities
                        ? ""
                        : "calls of "
                                + (workers.toolNames().isEmpty() ? "no tool" : String.join(", ", workers.toolNames())))
                + ")" + (options.routes.isEmpty() ? "" : "; routes " + options.routes));
        err.flush();
        try {
            stopped.await();
        } catch (InterruptedException interrupted) {
            Runtime.getRuntime().removeShutdownHook(hook);
            workers.close();
            connection.close();
            err.println("planvm worker: stopped");
        }
        return ExitCodes.OK;
    }

    /** The {@code --secret} values (from the environment without =VALUE); a missing or short one is a usage error. */
    private static Map<String, String> secrets(
            WorkerCommand options, Map<String, String> environment, CommandLine commandLine) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String secret : options.secrets) {
            int eq = secret.indexOf('=');
            String name = eq < 0 ? secret : secret.substring(0, eq);
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new CommandLine.ParameterException(commandLine, "--secret " + name + ": not a variable name");
            }
            String value = eq < 0 ? environment.get(name) : secret.substring(eq + 1);
            if (value == null) {
                throw new CommandLine.ParameterException(
                        commandLine, "--secret " + name + ": no value given and no environment variable " + name);
            }
            if (value.length() < Redactor.MIN_LENGTH) {
                throw new CommandLine.ParameterException(
                        commandLine,
                        "--secret " + name + ": a secret needs at least " + Redactor.MIN_LENGTH
                                + " characters to be kept out of traces and logs reliably");
            }
            values.put(name, value);
        }
        return values;
    }
}
