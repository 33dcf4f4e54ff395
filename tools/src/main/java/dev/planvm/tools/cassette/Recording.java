package dev.planvm.tools.cassette;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a recording run puts its interactions, in the order their calls were answered; read it
 * with {@link #cassette()} once the run is over (or at any time: it is a snapshot). Thread-safe.
 */
public final class Recording {

    private final List<Interaction> interactions = new ArrayList<>();
    private Cassette.RecordedClock clock;

    synchronized void add(Interaction interaction) {
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
