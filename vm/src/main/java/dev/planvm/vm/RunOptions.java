package dev.planvm.vm;

import dev.planvm.tools.cassette.Cassette;

/**
 * How one run reaches the outside world.
 *
 * @param replay           answer every call from this cassette and call nothing real, or {@code null}
 * @param replayTiming     while replaying, wait each interaction's recorded duration
 * @param record           record every call; the cassette is in {@link RunResult#recording()}
 * @param dryRun           call nothing: tools answer placeholders shaped by their {@code output_vars}
 * @param dryRunConditions what LLM conditions answer in a dry run
 */
public record RunOptions(Cassette replay, boolean replayTiming, boolean record, boolean dryRun, boolean dryRunConditions) {

    /** Live calls, nothing recorded. */
    public static final RunOptions LIVE = new RunOptions(null, false, false, false, false);

    public RunOptions {
        int modes = (replay != null ? 1 : 0) + (record ? 1 : 0) + (dryRun ? 1 : 0);
        if (modes > 1) {
            throw new IllegalArgumentException("replay, record and dry run exclude each other");
        }
    }

    public static RunOptions replay(Cassette cassette, boolean timing) {
        return new RunOptions(cassette, timing, false, false, false);
    }

    public static RunOptions recording() {
        return new RunOptions(null, false, true, false, false);
    }

    public static RunOptions dryRun(boolean conditionsAnswer) {
        return new RunOptions(null, false, false, true, conditionsAnswer);
    }

    /** {@code live}, {@code replay}, {@code record} or {@code dry-run}, as the trace names the mode. */
    public String mode() {
        return replay != null ? "replay" : record ? "record" : dryRun ? "dry-run" : "live";
    }
}
