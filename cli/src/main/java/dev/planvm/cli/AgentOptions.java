package dev.planvm.cli;

import dev.planvm.agent.Planner;
import dev.planvm.agent.format.AnswerFormat;
import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Recording;
import dev.planvm.vm.RunMode;
import java.nio.file.Path;
import picocli.CommandLine;

/** What {@code plan} and {@code ask} share: how the planner asks, streams, repairs, and records or replays. */
final class AgentOptions {

    @CommandLine.Option(
            names = "--repair-rounds",
            paramLabel = "N",
            defaultValue = "" + Planner.DEFAULT_REPAIR_ROUNDS,
            description =
                    "Send an invalid plan's problems back and ask for a corrected plan up to N times (default: ${DEFAULT-VALUE}).")
    int repairRounds;

    @CommandLine.Option(
            names = "--format",
            paramLabel = "auto|strict|json|text",
            defaultValue = "auto",
            description =
                    "How to ask for the plan: strict (structured output with planvm schema --strict-llm), json (JSON mode), "
                            + "text, or auto (default: strict, then JSON mode if the server refuses it).")
    String format;

    @CommandLine.Option(
            names = "--stream",
            description =
                    "Stream the LLM's answer: each instruction is checked as it arrives, and calls whose inputs are known "
                            + "start at once (read-only tools only).")
    boolean stream;

    @CommandLine.ArgGroup(exclusive = true)
    private Cassettes cassettes = new Cassettes();

    /** At most one of --record, --replay. */
    static final class Cassettes {
        @CommandLine.Option(
                names = "--record",
                paramLabel = "CASSETTE",
                description =
                        "Record every LLM request (the planner's, streamed pieces with their timing), tool call and "
                                + "condition into CASSETTE (written atomically, also when it fails).")
        Path record;

        @CommandLine.Option(
                names = "--replay",
                paramLabel = "CASSETTE",
                description =
                        "Answer everything from CASSETTE: no LLM, no tools needed (use the --stream and --format of the recording).")
        Path replay;
    }

    @CommandLine.Option(
            names = "--replay-timing",
            description =
                    "With --replay, wait each interaction's recorded duration and re-emit streamed pieces at their recorded pace.")
    boolean replayTiming;

    /** The session's mode; a recording keeps failed calls so that a re-plan replays with the same words. */
    RunMode mode(CommandLine commandLine) {
        if (replayTiming && cassettes.replay == null) {
            throw new CommandLine.ParameterException(commandLine, "--replay-timing needs --replay");
        }
        if (repairRounds < 0) {
            throw new CommandLine.ParameterException(commandLine, "--repair-rounds must not be negative");
        }
        if (cassettes.replay != null) {
            return RunMode.replay(Cassette.read(cassettes.replay), replayTiming);
        }
        return cassettes.record != null ? new RunMode.Record(Recording.keepingFailures()) : RunMode.live();
    }

    /** Where --record writes, or {@code null}. */
    Path recordTo() {
        return cassettes.record;
    }

    /** The answer format, or {@code null} for auto. */
    AnswerFormat answerFormat(CommandLine commandLine) {
        return switch (format) {
            case "auto" -> null;
            case "strict" -> AnswerFormat.STRICT;
            case "json" -> AnswerFormat.JSON;
            case "text" -> AnswerFormat.TEXT;
            default ->
                throw new CommandLine.ParameterException(
                        commandLine, "--format " + format + ": expected auto, strict, json or text");
        };
    }
}
