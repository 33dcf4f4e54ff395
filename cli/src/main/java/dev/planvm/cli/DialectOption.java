package dev.planvm.cli;

import dev.planvm.dialects.Dialect;
import picocli.CommandLine;

/**
 * {@code --dialect}: the language of the plan file a command reads, taken alike by {@code run}, {@code validate}
 * and {@code compile} ({@code rerun}'s names its {@code --plan}, so it has its own).
 */
final class DialectOption {

    @CommandLine.Option(
            names = "--dialect",
            paramLabel = "yaml|js|ppe|idyll|json",
            converter = DialectConverter.class,
            description = DialectConverter.DESCRIPTION)
    private Dialect dialect;

    /** The dialect given, or {@code null}: from the file's extension. */
    Dialect dialect() {
        return dialect;
    }
}
