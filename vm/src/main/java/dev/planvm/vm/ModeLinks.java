package dev.planvm.vm;

import dev.planvm.tools.Redactor;
import dev.planvm.tools.call.CallInterceptor;
import dev.planvm.tools.call.Sleeper;
import dev.planvm.tools.cassette.CassettePlayer;
import dev.planvm.tools.cassette.CassetteRecorder;
import dev.planvm.tools.chain.CallChains;

/** The call-chain link that makes a run recorded, replayed or dry (none for a live run). */
final class ModeLinks {

    private ModeLinks() {}

    /**
     * The link for {@code mode}, or {@code null} for a live run; {@code redactor} keeps secrets out of
     * cassettes, {@code sleeper} waits recorded durations in a replay with timing.
     */
    static CallInterceptor of(RunMode mode, Redactor redactor, Sleeper sleeper) {
        if (mode instanceof RunMode.Record record) {
            return new CassetteRecorder(record.recording(), redactor);
        }
        if (mode instanceof RunMode.Replay replay) {
            return new CassettePlayer(replay.cassette(), replay.timing(), redactor, replay.live(), sleeper);
        }
        if (mode instanceof RunMode.DryRun dry) {
            return CallChains.dryRun(dry.conditionsAnswer());
        }
        return null;
    }
}
