package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.RunOptions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;

/**
 * New runs made from a stored run: a rerun from a step (edited inputs, or an edited plan that keeps what ran
 * before that step) and an agent's re-plan after a step failed. Each keeps its parent's committed steps before the
 * step it starts from, copied into the new run before it runs, and records its parent.
 */
final class Reruns {

    private final RunStore store;
    private final StoredPlans plans;
    private final StoredSessions sessions;

    Reruns(RunStore store, StoredPlans plans, StoredSessions sessions) {
        this.store = store;
        this.plans = plans;
        this.sessions = sessions;
    }

    /** See {@link DurableRuns#replan}. */
    @SuppressWarnings("try") // the heartbeat is held while the run executes, never read
    DurableRun replan(String runId, int fromSeq, Plan plan, RunSession session) {
        StoredRun run = DurableRuns.find(store, runId);
        Plan before = plans.plan(run);
        int position;
        try {
            position = plan.positionOf(fromSeq);
        } catch (NoSuchElementException e) {
            throw new DurableRunException(
                    "the new plan of run " + run.id() + " has no seq_no " + fromSeq + " to run from");
        }
        for (Instruction kept : before.instructions()) {
            if (kept.seqNo() < fromSeq && !sameInstruction(kept, plan)) {
                throw new DurableRunException("the new plan changes seq_no " + kept.seqNo() + ", which comes before "
                        + fromSeq + ": a new plan keeps what already ran");
            }
        }
        int stoppedAt = run.checkpoint().position();
        List<StoredStep> kept = stoppedAt < before.instructions().size()
                        && before.instructions().get(stoppedAt).seqNo() == fromSeq
                ? run.steps()
                : keptSteps(run, fromSeq, safePosition(before, fromSeq));
        Map<String, JsonNode> variables = StoredRun.variablesAfter(kept, run.inputs());
        PlanVm planVm = plans.vmForNewRunOf(run);
        RunRequest checked = planVm.check(RunRequest.builder(plan)
                .start(new Checkpoint(position, kept.size(), variables))
                .session(session)
                .options(RunOptions.DEFAULT.withClock(run.options().clock())) // the parent's dates, when it has a clock
                .build());
        String id = plans.createRun(
                planVm, plan, run.inputs(), session.mode().label(), run.id(), fromSeq, checked.options());
        try (Heartbeat alive = store.heartbeat(id)) {
            for (StoredStep step : kept) {
                store.commitStep(id, step);
            }
            return sessions.ended(id, run.id(), kept.size(), sessions.execute(planVm, checked, id, kept.size(), 1));
        }
    }

    /** See {@link DurableRuns#createRerun}: the new run, stored with the steps it keeps, not run yet. */
    DurableRuns.Created createRerun(
            String runId, int fromSeq, Map<String, JsonNode> edits, Plan edited, RunRequest request) {
        StoredRun run = DurableRuns.find(store, runId);
        Plan original = plans.plan(run);
        int position;
        try {
            position = original.positionOf(fromSeq);
        } catch (NoSuchElementException e) {
            throw new DurableRunException("no instruction of run " + run.id() + "'s plan has seq_no " + fromSeq);
        }
        List<StoredStep> kept = keptSteps(run, fromSeq, position);
        Plan plan = original;
        if (edited != null) {
            try {
                position = edited.positionOf(fromSeq);
            } catch (NoSuchElementException e) {
                throw new DurableRunException("the edited plan has no seq_no " + fromSeq + " to run from");
            }
            Integer changed = firstChangeBefore(original, edited, fromSeq);
            if (changed != null) {
                throw new DurableRunException("the edited plan changes seq_no " + changed + ", which comes before "
                        + fromSeq + ": an edit may only change instructions from seq_no " + fromSeq
                        + " on (rerun --from " + changed + " reruns from there)");
            }
            for (StoredStep step : kept) {
                if (step.seqNo() >= fromSeq && !sameInstruction(original.instruction(step.seqNo()), edited)) {
                    throw new DurableRunException("the edited plan changes seq_no " + step.seqNo()
                            + ", which run " + run.id() + " ran (after a jump) before it reached seq_no " + fromSeq
                            + ": the new run keeps that step, so its instruction must stay as it was");
                }
            }
            plan = edited;
        }
        Map<String, JsonNode> inputs = new LinkedHashMap<>(run.inputs());
        inputs.putAll(edits);
        Map<String, JsonNode> variables = StoredRun.variablesAfter(kept, run.inputs());
        variables.putAll(edits);
        PlanVm planVm = plans.vmForNewRunOf(run);
        RunRequest checked = planVm.check(request.toBuilder()
                .plan(plan)
                .start(new Checkpoint(position, kept.size(), variables))
                .mode(StoredPlans.skipServed(request.mode(), kept))
                .options(StoredPlans.clocked(run, request))
                .build());
        String id = plans.createRun(planVm, plan, inputs, checked.mode().label(), run.id(), fromSeq, checked.options());
        for (StoredStep step : kept) {
            store.commitStep(id, step);
        }
        return new DurableRuns.Created(id, checked, run.id(), kept.size(), planVm);
    }

    /**
     * The lowest seq_no below {@code fromSeq} whose instruction differs between the two plans (changed,
     * removed or added), or {@code null} when they agree before {@code fromSeq}.
     */
    private static Integer firstChangeBefore(Plan before, Plan after, int fromSeq) {
        TreeSet<Integer> changed = new TreeSet<>();
        for (Instruction kept : before.instructions()) {
            if (kept.seqNo() < fromSeq && !sameInstruction(kept, after)) {
                changed.add(kept.seqNo());
            }
        }
        for (Instruction added : after.instructions()) {
            if (added.seqNo() < fromSeq && !sameInstruction(added, before)) {
                changed.add(added.seqNo());
            }
        }
        return changed.isEmpty() ? null : changed.first();
    }

    private static boolean sameInstruction(Instruction kept, Plan plan) {
        try {
            return plan.instruction(kept.seqNo())
                    .header()
                    .raw()
                    .equals(kept.header().raw());
        } catch (NoSuchElementException gone) {
            return false;
        }
    }

    private static int safePosition(Plan plan, int seqNo) {
        try {
            return plan.positionOf(seqNo);
        } catch (NoSuchElementException e) {
            return -1;
        }
    }

    /**
     * The committed steps before the first step at {@code fromSeq}; when the run never ran it, all
     * its steps if that is where the run stopped (a failed step), else an error.
     */
    private static List<StoredStep> keptSteps(StoredRun run, int fromSeq, int position) {
        List<StoredStep> steps = run.steps();
        for (int i = 0; i < steps.size(); i++) {
            if (steps.get(i).seqNo() == fromSeq) {
                return steps.subList(0, i);
            }
        }
        if (run.checkpoint().position() == position) {
            return steps;
        }
        throw new DurableRunException("run " + run.id() + " never reached seq_no " + fromSeq
                + ", so there is no state to start it from (it ran seq_nos "
                + steps.stream()
                        .map(s -> String.valueOf(s.seqNo()))
                        .distinct()
                        .reduce((a, b) -> a + ", " + b)
                        .orElse("none")
                + ")");
    }
}
