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

    /**
     * A recording that continues {@code earlier}, the cassette of a run's earlier sessions (a run that stopped
     * waiting for an approval or an input, continued by {@code approve} or {@code answer}): it holds
     * {@code earlier}'s interactions and clock, then this session's, and keeps failures as
     * {@link #keepingFailures()} does. A plan tool's call recorded {@linkplain Interaction.ToolInteraction#waiting
     * waiting} in {@code earlier} is completed in place when this session records the same call (tool and
     * params) again: its child's interactions from before the wait, then those after it, at every depth.
     */
    public static Recording continuing(Cassette earlier) {
        Recording recording = new Recording(true);
        recording.interactions.addAll(earlier.interactions());
        recording.clock = earlier.clock();
        recording.continued = true;
        return recording;
    }

    /** Whether failed tool calls are recorded. */
    public boolean keepsFailures() {
        return failures;
    }

    private Cassette.RecordedClock clock;
    /** Whether this recording continues a cassette ({@link #continuing}). */
    private boolean continued;

    /**
     * Records one interaction, after those recorded before it (the recorder records each call it
     * passes on; a call answered beside it, such as a plan tool's child run, is recorded this way).
     */
    public synchronized void add(Interaction interaction) {
        if (interaction instanceof Interaction.ToolInteraction call && call.childRun()) {
            int waited = waitingFor(interactions, call);
            if (waited >= 0) {
                interactions.set(waited, continued((Interaction.ToolInteraction) interactions.get(waited), call));
                return;
            }
        }
        interactions.add(interaction);
    }

    /** The index of the waiting call among {@code list} that {@code call} continues, or -1. */
    private static int waitingFor(List<Interaction> list, Interaction.ToolInteraction call) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) instanceof Interaction.ToolInteraction earlier
                    && earlier.waiting()
                    && earlier.tool().equals(call.tool())
                    && earlier.params().equals(call.params())) {
                return i;
            }
        }
        return -1;
    }

    /**
     * {@code later}, the call that continued {@code waiting}, with the child's interactions of both sessions:
     * those before the wait, then those after it; a grandchild's waiting call among the first is continued by
     * its call among the second in the same way.
     */
    private static Interaction.ToolInteraction continued(
            Interaction.ToolInteraction waiting, Interaction.ToolInteraction later) {
        List<Interaction> before = new ArrayList<>(waiting.children());
        List<Interaction> after = new ArrayList<>(later.children());
        for (int i = before.size() - 1; i >= 0; i--) {
            if (before.get(i) instanceof Interaction.ToolInteraction inner && inner.waiting()) {
                for (int j = 0; j < after.size(); j++) {
                    if (after.get(j) instanceof Interaction.ToolInteraction next
                            && next.childRun()
                            && next.tool().equals(inner.tool())
                            && next.params().equals(inner.params())) {
                        after.set(j, continued(inner, next));
                        before.remove(i);
                        break;
                    }
                }
            }
        }
        before.addAll(after);
        return later.withChildren(before);
    }

    /**
     * Records the clock of the run (written into the cassette, so a replay computes the same dates); a
     * recording that {@linkplain #continuing continues} a cassette with a clock keeps that one.
     */
    public synchronized void clock(Cassette.RecordedClock value) {
        if (this.clock == null || !continued) {
            this.clock = value;
        }
    }

    /** What was recorded so far. */
    public synchronized Cassette cassette() {
        return new Cassette(new ArrayList<>(interactions), clock);
    }
}
