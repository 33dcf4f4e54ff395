package dev.planvm.vm;

import dev.planvm.tools.cassette.Cassette;
import dev.planvm.tools.cassette.Recording;
import java.util.Objects;
import java.util.Set;

/**
 * How one run reaches the outside world: live, recording every call into a cassette, replaying
 * one, or calling nothing at all (a dry run). Exactly one mode per run.
 *
 * <pre>{@code
 * vm.run(plan, inputs, RunMode.live());
 * RunMode.Record record = RunMode.record();
 * vm.run(plan, inputs, record);
 * record.recording().cassette().write(path);
 * vm.run(plan, inputs, RunMode.replay(Cassette.read(path), false));
 * vm.run(plan, inputs, RunMode.dryRun(false));
 * }</pre>
 */
public sealed interface RunMode permits RunMode.Live, RunMode.Record, RunMode.Replay, RunMode.DryRun {

    /** {@code live}, {@code record}, {@code replay} or {@code dry-run}: how the trace and the store name the mode. */
    String label();

    /** Calls tools and the LLM for real, records nothing. */
    record Live() implements RunMode {
        @Override
        public String label() {
            return "live";
        }
    }

    /**
     * Calls for real and records every call into {@link #recording()} (secrets redacted): its answer, or,
     * when it failed after its retries, its error and kind, so a replay fails it again the same way
     * (a plan's {@code on_error} then sees the same {@code last_error}).
     */
    record Record(Recording recording) implements RunMode {
        public Record {
            Objects.requireNonNull(recording, "recording");
        }

        @Override
        public String label() {
            return "record";
        }
    }

    /**
     * Answers every call from the cassette and calls nothing real (tools need not be installed) —
     * except calls of the {@code live} tools, which run for real (a partial replay: pin the LLM's
     * answers, exercise retrieval live).
     *
     * @param timing wait each interaction's recorded duration before answering
     * @param live   tools called for real, not answered from the cassette (they must be installed)
     */
    record Replay(Cassette cassette, boolean timing, Set<String> live) implements RunMode {
        public Replay {
            Objects.requireNonNull(cassette, "cassette");
            live = Set.copyOf(live);
        }

        public Replay(Cassette cassette, boolean timing) {
            this(cassette, timing, Set.of());
        }

        @Override
        public String label() {
            return "replay";
        }
    }

    /**
     * Calls nothing: tools answer placeholders shaped by their {@code output_vars}, LLM conditions
     * answer {@code conditionsAnswer}.
     */
    record DryRun(boolean conditionsAnswer) implements RunMode {
        @Override
        public String label() {
            return "dry-run";
        }
    }

    static Live live() {
        return new Live();
    }

    static Record record() {
        return new Record(Recording.keepingFailures());
    }

    static Replay replay(Cassette cassette, boolean timing) {
        return new Replay(cassette, timing);
    }

    /** A partial replay: the {@code live} tools run for real, every other call is answered from the cassette. */
    static Replay replay(Cassette cassette, boolean timing, Set<String> live) {
        return new Replay(cassette, timing, live);
    }

    static DryRun dryRun(boolean conditionsAnswer) {
        return new DryRun(conditionsAnswer);
    }
}
