package dev.planvm.tools.cassette;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a recording run puts its interactions, in the order their calls were answered; read it
 * with {@link #cassette()} once the run is over (or at any time: it is a snapshot). Thread-safe.
 */
public final class Recording {

    private final List<Interaction> interactions = new ArrayList<>();
    private final boolean failures;

    /** A recording of the calls that answered. */
    public Recording() {
        this(false);
    }

    private Recording(boolean failures) {
        this.failures = failures;
    }

    /**
     * A recording that also keeps the tool calls that failed (after their retries), with their
     * messages, so that a replay fails them again with the same words: what an agent's re-plan needs to
     * be asked the very same question. A call that failed because it was cancelled (interrupted) is not
     * kept: whether it is made at all depends on timing.
     */
    public static Recording keepingFailures() {
        return new Recording(true);
    }

    /** Whether failed tool calls are recorded. */
    public boolean keepsFailures() {
        return failures;
    }

    private Cassette.RecordedClock clock;

    /**
     * Records one interaction, after those recorded before it (the recorder records each call it
     * passes on; a call answered beside it, such as a plan tool's child run, is recorded this way).
     */
    public synchronized void add(Interaction interaction) {
        interactions.add(interaction);
    }

    /** Records the clock of the run (written into the cassette, so a replay computes the same dates). */
    public synchronized void clock(Cassette.RecordedClock value) {
        this.clock = value;
    }

    /** What was recorded so far. */
    public synchronized Cassette cassette() {
        return new Cassette(new ArrayList<>(interactions), clock);
    }
}
