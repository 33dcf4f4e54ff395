package dev.planvm.cli;

import picocli.CommandLine;

/**
 * The stored run a command acts on, its first parameter: {@code answer}, {@code approve}, {@code rerun} and
 * {@code resume} take it alike ({@code show}'s also names a workflow, so it has its own).
 */
final class RunIdParameter {

    @CommandLine.Parameters(index = "0", paramLabel = "RUN", description = "The run id (or an unambiguous prefix).")
    private String runId;

    /** The run id or prefix as given. */
    String runId() {
        return runId;
    }
}
