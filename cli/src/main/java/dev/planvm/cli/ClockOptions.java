package dev.planvm.cli;

import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.TerminalText;
import java.time.ZoneId;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * {@code --now} and {@code --tz}: the run's clock, which its date/time helpers read ({@code today},
 * {@code next(Thursday)}). By default a run takes the system clock and zone when it starts, a replay
 * its cassette's clock, a resume or a rerun the clock stored with the run; these options replace
 * either part.
 */
final class ClockOptions {

    @CommandLine.Option(
            names = "--now",
            paramLabel = "INSTANT",
            description = "The run's 'now': 2026-11-26T09:00:00Z, 2026-11-26T09:00:00+01:00, or 2026-11-26T09:00 or"
                    + " 2026-11-26 in the run's time zone (default: the system clock when the run starts; a replay takes its"
                    + " cassette's, a resume or rerun the stored run's).")
    private String now;

    @CommandLine.Option(
            names = "--tz",
            paramLabel = "ZONE",
            description =
                    "The run's time zone, e.g. Europe/Oslo, America/New_York, UTC or +01:00 (default: the system zone;"
                            + " a replay takes its cassette's, a resume or rerun the stored run's).")
    private String tz;

    /** Whether {@code --now} or {@code --tz} was given. */
    boolean given() {
        return now != null || tz != null;
    }

    /**
     * What the options do to the clock a run would otherwise get: replace its instant and/or its zone
     * ({@code --now} in a local form is read in the run's zone). Malformed values are usage errors, found here.
     */
    UnaryOperator<RunClock> adjust(CommandLine commandLine) {
        ZoneId zone;
        try {
            zone = tz == null ? null : RunClock.zone(tz);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--tz: " + TerminalText.safe(e.getMessage()));
        }
        try {
            if (now != null) {
                new RunClock(RunClock.instant(now, zone == null ? ZoneId.systemDefault() : zone), ZoneId.of("UTC"));
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--now: " + TerminalText.safe(e.getMessage()));
        }
        return base -> {
            ZoneId z = zone == null ? base.zone() : zone;
            return new RunClock(now == null ? base.now() : RunClock.instant(now, z), z);
        };
    }
}
