package dev.planvm.vm.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import java.util.List;
import java.util.Map;

/**
 * Where a run's committed steps are made durable (the run store of durable runs). Unlike a
 * {@link RunListener}, a journal is not an observer that may fail quietly: when
 * {@link #commit} throws, the step is not committed and the run stops, failed, with a message
 * that says the step could not be recorded and why — so a store never says a run succeeded with
 * steps missing. Called on the run's thread, once per successful step, before the next step starts.
 */
public interface RunJournal {

    /**
     * Records a step that succeeded.
     *
     * @param nextPosition where execution goes on: an index into the plan's instructions (the plan's
     *                     size when the run ends after this step)
     */
    void commit(StepRecord step, int nextPosition);

    /**
     * The answers committed for elements of the {@code for_each} step {@code seqNo} now running (the
     * step the next {@link #commit} records), by position in {@code calls}: an element counts only when
     * the committed call is the same (tool and params) at the same position. Empty by default, and for a
     * step that was never interrupted.
     */
    default Map<Integer, JsonNode> settledElements(int seqNo, List<Call> calls) {
        return Map.of();
    }

    /**
     * Commits the answer of one element ({@code position} in the step's calls) of the {@code for_each}
     * step {@code seqNo} now running, as it settles, before the step itself commits; a resume of the run
     * then finds it with {@link #settledElements}. Called on the run's thread. Does nothing by default.
     */
    default void settleElement(int seqNo, int position, Call call, JsonNode answer) {}

    /** Records how the run ended; a failure here turns a succeeded result into a failed one. */
    default void finish(RunResult result) {}

    /** The id of the run this journal records (a stored run's), or {@code null} when it has none. */
    default String runId() {
        return null;
    }

    /**
     * Where a child run that this run's step {@code seqNo} starts (a plan tool's) is journaled: a new
     * stored run that names this run and {@code seqNo} as its parent, or — when this step runs again
     * after this run was interrupted, or waited because the child waited — the interrupted or waiting
     * child, continued after its last committed step.
     * {@code null} (the default) when this journal keeps no children: the child runs unjournaled.
     *
     * @param options the child's own options (its parent's, narrowed), stored with it
     */
    default Child child(Plan plan, Map<String, JsonNode> inputs, int seqNo, String mode, RunOptions options) {
        return null;
    }

    /**
     * A child run's journal and where it starts.
     *
     * @param journal its journal ({@link #runId()} is the child's id)
     * @param start   the plan's start with the inputs, or where an interrupted child stopped
     * @param resumed whether it continues an interrupted child (or a waiting one)
     * @param approvals the child's own reviewer, which keeps its waits and decisions under the child's id;
     *                {@code null}: the parent's
     * @param finished the result of a child that already succeeded for this call, whose answer its caller never
     *                used (the caller's process died between the child's end and its own commit): the call
     *                answers it and nothing runs; {@code null} for a child to run
     */
    record Child(RunJournal journal, Checkpoint start, boolean resumed, Approvals approvals, RunResult finished) {
        /** A child that asks its parent's reviewer. */
        public Child(RunJournal journal, Checkpoint start, boolean resumed) {
            this(journal, start, resumed, null, null);
        }

        /** A child to run. */
        public Child(RunJournal journal, Checkpoint start, boolean resumed, Approvals approvals) {
            this(journal, start, resumed, approvals, null);
        }
    }
}
