package dev.planvm.cli;

import dev.planvm.tools.cassette.Cassette;
import dev.planvm.vm.RunMode;
import java.nio.file.Path;
import java.util.Set;
import picocli.CommandLine;

/** How {@code run} reaches the outside world: {@code --record}, {@code --replay} or {@code --dry-run} (at most one). */
final class ModeOptions {

    @CommandLine.ArgGroup(exclusive = true)
    private Exclusive mode = new Exclusive();

    /** At most one of --record, --replay, --dry-run. */
    static final class Exclusive {
        @CommandLine.Option(
                names = "--record",
                paramLabel = "CASSETTE",
                description =
                        "Record every tool call and LLM condition into CASSETTE (written atomically, also when the run fails).")
        Path record;

        @CommandLine.Option(
                names = "--replay",
                paramLabel = "CASSETTE",
                description =
                        "Answer every tool call and LLM condition from CASSETTE; call nothing real (tools need not be installed).")
        Path replay;

        @CommandLine.Option(
                names = "--dry-run",
                description =
                        "Call nothing: tools answer placeholders shaped by output_vars; LLM conditions answer --dry-run-conditions.")
        boolean dryRun;
    }

    @CommandLine.Option(
            names = "--replay-timing",
            description = "With --replay, wait each interaction's recorded duration.")
    private boolean replayTiming;

    @CommandLine.Option(
            names = "--live",
            paramLabel = "TOOLS",
            split = ",",
            description =
                    "With --replay, call these tools for real and answer every other call from the cassette (a partial "
                            + "replay, e.g. --live vector_search,retrieve_knowledge_graph). Comma-separated, repeatable.")
    private Set<String> live = Set.of();

    @CommandLine.Option(
            names = "--dry-run-conditions",
            paramLabel = "true|false",
            defaultValue = "false",
            arity = "1",
            description = "What LLM conditions answer in a dry run (default: ${DEFAULT-VALUE}).")
    private boolean dryRunConditions;

    /** The run mode; a cassette that cannot be read is a {@code CassetteException} (exit 2). */
    RunMode mode(CommandLine commandLine) {
        if ((replayTiming || !live.isEmpty()) && mode.replay == null) {
            throw new CommandLine.ParameterException(
                    commandLine, (replayTiming ? "--replay-timing" : "--live") + " needs --replay");
        }
        if (mode.replay != null) {
            return RunMode.replay(Cassette.read(mode.replay), replayTiming, live);
        }
        if (mode.record != null) {
            return RunMode.record();
        }
        return mode.dryRun ? RunMode.dryRun(dryRunConditions) : RunMode.live();
    }

    /** Where {@code --record} writes the cassette, or {@code null}. */
    Path recordTo() {
        return mode.record;
    }
}
