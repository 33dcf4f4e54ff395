package dev.planvm.cli;

import picocli.CommandLine;

/**
 * Where plans run when they run on Temporal: {@code --temporal HOST:PORT}, the namespace and the
 * task queue. Without {@code --temporal} a command runs in this process, as always.
 */
final class TemporalOptions {

    @CommandLine.Option(
            names = "--temporal",
            paramLabel = "HOST:PORT",
            description =
                    "Run on the Temporal server at HOST:PORT (e.g. 127.0.0.1:7233): plans run as workflows on the "
                            + "workers of the task queue (planvm worker), which hold the tools and secrets.")
    String target;

    @CommandLine.Option(
            names = "--namespace",
            paramLabel = "N",
            defaultValue = "default",
            description = "With --temporal: the Temporal namespace (default: ${DEFAULT-VALUE}).")
    String namespace;

    @CommandLine.Option(
            names = "--task-queue",
            paramLabel = "Q",
            defaultValue = "planvm",
            description =
                    "With --temporal: the task queue the plan workflows' workers poll (default: ${DEFAULT-VALUE}).")
    String taskQueue;

    /** Whether {@code --temporal} was given. */
    boolean enabled() {
        return target != null;
    }

    /** {@code --namespace} or {@code --task-queue} given without {@code --temporal} is a usage error. */
    void checkUsage(CommandLine commandLine) {
        if (target == null) {
            CommandLine.ParseResult parsed = commandLine.getParseResult();
            for (String option : new String[] {"--namespace", "--task-queue"}) {
                if (parsed.hasMatchedOption(option)) {
                    throw new CommandLine.ParameterException(commandLine, option + " needs --temporal HOST:PORT");
                }
            }
        } else if (!target.matches("[^\\s:]+:\\d{1,5}")) {
            throw new CommandLine.ParameterException(commandLine, "--temporal " + target + ": expected HOST:PORT");
        }
    }
}
