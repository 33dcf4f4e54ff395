package dev.planvm.cli;

import picocli.CommandLine;

/** How {@code run --temporal} submits its plan: the workflow id, and whether to wait for the result. */
final class TemporalRunOptions {

    @CommandLine.Option(
            names = "--workflow-id",
            paramLabel = "ID",
            description = "With --temporal: the workflow's id (default: planvm- and 12 hex digits).")
    String workflowId;

    @CommandLine.Option(
            names = "--no-wait",
            description = "With --temporal: print the workflow id and exit once the workflow has started (planvm show "
                    + "ID --temporal ... prints it later).")
    boolean noWait;

    /** These options without {@code --temporal} are a usage error. */
    void checkUsage(TemporalOptions temporal, CommandLine commandLine) {
        if (!temporal.enabled() && (workflowId != null || noWait)) {
            throw new CommandLine.ParameterException(
                    commandLine, (noWait ? "--no-wait" : "--workflow-id") + " needs --temporal HOST:PORT");
        }
    }
}
