package dev.planvm.cli;

import picocli.CommandLine;

/**
 * {@code --format text|json}, taken alike by the commands that print a listing either way ({@code tools},
 * {@code kb stats}; {@code validate}'s says more, so it has its own).
 */
final class OutputFormat {

    @CommandLine.Option(
            names = "--format",
            defaultValue = "text",
            description = "text or json. Default: ${DEFAULT-VALUE}.")
    private ValidateCommand.Format format;

    /** Whether JSON was asked for. */
    boolean json() {
        return format == ValidateCommand.Format.json;
    }
}
