package dev.planvm.cli;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code planvm worker --temporal HOST:PORT}: runs Temporal workers for plans until stopped. Its
 * fields are plain values, so the command line is parsed without Temporal on the class path; the
 * work is {@link TemporalWorker}'s.
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Run Temporal workers for plans until stopped (Ctrl-C or SIGTERM: running calls finish first):"
                    + " a workflow worker (planvm's interpreter in the PlanvmPlan workflow) and an activity worker (the tools of"
                    + " the tools configuration, llm_generate and LLM conditions when an LLM is configured) on the task queue.",
            "Secrets (--secret, and the configuration's own) stay on this worker: plans pass them by name, and every"
                    + " payload this worker sends is redacted.",
            "A worker for one tool's queue: --no-workflows --task-queue Q, and --route TOOL=Q on the workflow workers."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:stopped",
            "1:the server could not be reached or the workers failed",
            "2:bad usage or bad configuration"
        })
final class WorkerCommand implements Callable<Integer> {

    @CommandLine.Option(
            names = "--temporal",
            paramLabel = "HOST:PORT",
            required = true,
            description = "The Temporal server (e.g. 127.0.0.1:7233 for temporal server start-dev).")
    String target;

    @CommandLine.Option(
            names = "--namespace",
            paramLabel = "N",
            defaultValue = "default",
            description = "The Temporal namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @CommandLine.Option(
            names = "--task-queue",
            paramLabel = "Q",
            defaultValue = "planvm",
            description = "The task queue to poll (default: ${DEFAULT-VALUE}).")
    String taskQueue;

    @CommandLine.Option(
            names = "--route",
            paramLabel = "TOOL=QUEUE",
            description =
                    "Send the calls of TOOL to task queue QUEUE, where workers holding it run (condition_prompt routes"
                            + " LLM conditions). Repeatable.")
    Map<String, String> routes = Map.of();

    @CommandLine.Option(
            names = "--no-workflows",
            description = "Run only activities (the calls of this worker's tools).")
    boolean noWorkflows;

    @CommandLine.Option(
            names = "--no-activities",
            description = "Run only plan workflows; every call goes to other workers.")
    boolean noActivities;

    @CommandLine.Option(
            names = "--secret",
            paramLabel = "NAME[=VALUE]",
            description =
                    "A secret this worker holds; plans given --secret NAME get it, by reference. Without =VALUE the"
                            + " value is read from the environment variable NAME. Repeatable.")
    List<String> secrets = List.of();

    @CommandLine.Option(
            names = "--tool-concurrency",
            paramLabel = "TOOL=N",
            description = "The most calls of TOOL this worker runs at once. Repeatable.")
    Map<String, Integer> toolConcurrency = Map.of();

    @CommandLine.Option(
            names = "--max-concurrent-activities",
            paramLabel = "N",
            description = "The most calls this worker runs at once (default: Temporal's, 200).")
    Integer maxConcurrentActivities;

    @CommandLine.Option(
            names = "--activities-per-second",
            paramLabel = "R",
            description =
                    "The most calls per second the server hands out on this task queue, to all its workers together.")
    Double activitiesPerSecond;

    @CommandLine.Option(
            names = "--heartbeat-timeout",
            paramLabel = "SECONDS",
            defaultValue = "30",
            description = "How long a call may go without a heartbeat before the server retries it on another worker"
                    + " (default: ${DEFAULT-VALUE}).")
    long heartbeatSeconds;

    @CommandLine.Option(
            names = "--max-payload-bytes",
            paramLabel = "N",
            defaultValue = "1048576",
            description =
                    "The largest call output and plan result, as JSON (default: ${DEFAULT-VALUE}; Temporal refuses"
                            + " payloads over 2 MB).")
    long maxPayloadBytes;

    @CommandLine.Option(
            names = "--max-history-bytes",
            paramLabel = "N",
            defaultValue = "41943040",
            description = "The most the answers of one plan's calls may add up to, as JSON (default: ${DEFAULT-VALUE};"
                    + " Temporal refuses histories over 50 MB).")
    long maxHistoryBytes;

    @CommandLine.Mixin
    ConfigOptions config;

    @CommandLine.Mixin
    ToolPolicyOptions toolPolicy;

    @CommandLine.Mixin
    private Verbosity verbosity;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.ParentCommand
    PlanvmCommand parent;

    @Override
    public Integer call() {
        CommandLine commandLine = spec.commandLine();
        if (!target.matches("[^\\s:]+:\\d{1,5}")) {
            throw new CommandLine.ParameterException(commandLine, "--temporal " + target + ": expected HOST:PORT");
        }
        if (noWorkflows && noActivities) {
            throw new CommandLine.ParameterException(
                    commandLine, "--no-workflows and --no-activities leave nothing to run");
        }
        TemporalSupport.require("worker", commandLine);
        return TemporalWorker.run(this, parent.environment(), commandLine);
    }
}
