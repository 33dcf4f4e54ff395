package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.Outcome;
import dev.planvm.vm.run.RunJournal;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import dev.planvm.vm.run.StepRecord;
import dev.planvm.vm.trace.TraceRecorder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a run's committed steps to the {@link RunStore} as they commit, each in its own
 * transaction, before the next step starts. A failed step that stops the run is not committed (a
 * resume runs it again); one the run goes on from (its {@code on_error}, a run that keeps going) is,
 * with its writes ({@code last_error} included). A write that fails stops the run (see {@link RunJournal}).
 */
final class StoreJournal implements RunJournal {

    private final RunStore store;
    private final String runId;
    private final int session;
    private final Plan plan;
    private int stepIndex;
    /** A child run's own lease, held from its start to its end; {@code null} for a top-level run (its caller holds one). */
    private Heartbeat alive;
    /** The reviewer of the session (a prompt on a terminal), which child runs ask too; {@code null}: none. */
    private Approvals reviewer;
    /** Whether a sleep with time left stops the run (and its child runs), waiting for a timer ({@link DurableRuns}). */
    private boolean sleepsWait;
    /** The child runs this session started or took as finished: none is taken for another call. */
    private final Set<String> children = ConcurrentHashMap.newKeySet();

    /**
     * @param stepsBefore steps the run had already committed (0 for a new run)
     * @param session     1 for the first process, 2 for the first resume, ...
     * @param plan        the plan the run runs (a compiled one names each step's source line in its trace entry)
     */
    StoreJournal(RunStore store, String runId, int stepsBefore, int session, Plan plan) {
        this.store = store;
        this.plan = plan;
        this.runId = runId;
        this.stepIndex = stepsBefore;
        this.session = session;
    }

    /** Sets the session's reviewer, asked by this run's child runs too (before the run starts). */
    StoreJournal reviewer(Approvals value) {
        this.reviewer = value;
        return this;
    }

    /** Sets whether a sleep with time left stops this run and its child runs, waiting for a timer (before the run starts). */
    StoreJournal sleepsWait(boolean value) {
        this.sleepsWait = value;
        return this;
    }

    boolean sleepsWait() {
        return sleepsWait;
    }

    @Override
    public void commit(StepRecord step, int nextPosition) {
        store.commitStep(
                runId,
                new StoredStep(
                        stepIndex + 1,
                        step.seqNo(),
                        step.type(),
                        outcome(step.outcome()),
                        nextPosition,
                        step.writes(),
                        step.calls(),
                        TraceRecorder.entry(step, plan.sourceLines().get(step.seqNo())),
                        session,
                        Instant.now().truncatedTo(ChronoUnit.MILLIS).toString()));
        stepIndex++;
    }

    @Override
    public Map<Integer, JsonNode> settledElements(int seqNo, List<Call> calls) {
        return store.committedElements(runId, nextStepIndex(), seqNo, calls);
    }

    @Override
    public void settleElement(int seqNo, int position, Call call, JsonNode answer) {
        store.commitElement(runId, nextStepIndex(), seqNo, position, call, answer, session);
    }

    /** The index the step now running will have when it commits (committed steps + 1). */
    int nextStepIndex() {
        return stepIndex + 1;
    }

    @Override
    public void finish(RunResult result) {
        try {
            store.finishRun(runId, result);
        } finally {
            if (alive != null) {
                alive.close();
                alive = null;
            }
        }
    }

    /**
     * A stored child run of this run's call at {@code seqNo}: the interrupted or waiting one a resume (or an
     * approval, an answer) of this run continues (claimed by this process, after its last committed step); else
     * one with these inputs that succeeded after this run's last committed step, whose answer the call takes as
     * it is (the process died between the child's end and this run's commit: nothing of it runs again); else a
     * new one. Its waits and decisions are kept under its own id.
     */
    @Override
    public Child child(Plan childPlan, Map<String, JsonNode> inputs, int seqNo, String mode, RunOptions options) {
        // a run's first session has no interrupted or waiting child: either would have ended that session
        Optional<String> interrupted = session == 1 ? Optional.empty() : store.interruptedChild(runId, seqNo);
        if (interrupted.isPresent()) {
            StoredRun stored = store.find(interrupted.get()).orElseThrow();
            int sessionNo = store.claim(stored.id(), true); // its caller's process died: this one owns the tree now
            StoreJournal journal = new StoreJournal(
                            store, stored.id(), stored.steps().size(), sessionNo, childPlan)
                    .reviewer(reviewer)
                    .sleepsWait(sleepsWait);
            journal.alive = store.heartbeat(stored.id());
            return new Child(
                    journal, stored.checkpoint(), true, new StoreApprovals(store, stored.id(), journal, reviewer));
        }
        Optional<String> unused =
                session == 1 ? Optional.empty() : store.unusedChild(runId, seqNo, stepIndex, inputs, children);
        if (unused.isPresent()) {
            StoredRun stored = store.find(unused.get()).orElseThrow();
            children.add(stored.id());
            RunResult result = new RunResult(
                    RunStatus.SUCCEEDED,
                    stored.finalAnswer(),
                    stored.checkpoint().variables(),
                    null,
                    0,
                    Duration.ZERO,
                    null,
                    List.of(),
                    null);
            return new Child(
                    new StoreJournal(store, stored.id(), stored.steps().size(), stored.sessions(), childPlan),
                    stored.checkpoint(),
                    true,
                    null,
                    result);
        }
        String id = store.createChildRun(childPlan, inputs, mode, options, runId, seqNo, stepIndex + 1);
        children.add(id);
        StoreJournal journal =
                new StoreJournal(store, id, 0, 1, childPlan).reviewer(reviewer).sleepsWait(sleepsWait);
        journal.alive = store.heartbeat(id);
        return new Child(
                journal,
                Checkpoint.start(new LinkedHashMap<>(inputs)),
                false,
                new StoreApprovals(store, id, journal, reviewer));
    }

    @Override
    public String runId() {
        return runId;
    }

    private static String outcome(Outcome outcome) {
        if (outcome instanceof Outcome.JumpTo) {
            return "jump";
        }
        return outcome instanceof Outcome.Halt ? "halt" : "next";
    }
}
