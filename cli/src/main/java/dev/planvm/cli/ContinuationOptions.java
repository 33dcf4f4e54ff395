package dev.planvm.cli;

import java.nio.file.Path;
import picocli.CommandLine;

/**
 * What {@code approve} and {@code answer} write of the session that continues a waiting run:
 * {@code --record CASSETTE} (continue the run's recording) and {@code --trace OUT}.
 */
final class ContinuationOptions {

    @CommandLine.Option(
            names = "--record",
            paramLabel = "CASSETTE",
            description = "Continue recording into CASSETTE, the cassette run --record wrote when the run stopped"
                    + " waiting: it then holds the earlier sessions' calls and this one's, a waiting plan tool's"
                    + " child run completed.")
    Path record;

    @CommandLine.Option(
            names = "--trace",
            paramLabel = "OUT",
            description = "Write the trace of this session's steps to OUT.")
    Path trace;
}
