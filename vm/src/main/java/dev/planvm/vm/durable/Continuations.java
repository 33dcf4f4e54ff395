package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.json.JsonValues;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.FailureKind;
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Continuing a stored run after its last committed step: a resume, or a reviewer's decision or a person's answer
 * recorded first, then the run (the top of its waiting tree) continued in a session of this process, which claims
 * it. The run continues with its stored plan, state, options and plan tools ({@link StoredPlans}); a replay skips
 * what its committed steps, and those of its child runs, were already served.
 */
final class Continuations {

    private final PlanVm vm;
    private final RunStore store;
    private final StoredPlans plans;
    private final StoredSessions sessions;
    private final Waits waits;

    Continuations(PlanVm vm, RunStore store, StoredPlans plans, StoredSessions sessions) {
        this.vm = vm;
        this.store = store;
        this.plans = plans;
        this.sessions = sessions;
        this.waits = new Waits(store);
    }

    /** The checked request that continues a stored run, and the VM (with the run's plan tools) it runs on. */
    private record Continuing(PlanVm vm, RunRequest request) {}

    /** See {@link DurableRuns#resume(String, RunRequest, Map, boolean)}. */
    DurableRun resume(String runId, RunRequest request, Map<String, JsonNode> secrets, boolean force) {
        StoredRun run = find(runId);
        StoredRun waiting = WaitTrees.tree(store, run).waiting();
        String where = waiting == run ? "" : " in its child run " + waiting.id();
        if (waiting.status() == RunStatus.WAITING && waiting.pendingApproval().isPresent()) {
            throw new DurableRunException("run " + run.id() + " waits for approval of "
                    + waiting.pendingApproval()
                            .map(a -> "seq_no " + a.seqNo()
                                    + (a.isElement() ? " (for_each element " + a.element() + ", " : " (") + a.tool()
                                    + ")")
                            .orElse("a call")
                    + where + ": approve or deny it (planvm approve " + run.id() + " [--deny --reason TEXT])");
        }
        store.pendingInput(waiting.id()).ifPresent(input -> {
            if (waiting.status() == RunStatus.WAITING) {
                throw new DurableRunException("run " + run.id() + " waits for input at seq_no " + input.seqNo()
                        + (input.isElement() ? " (for_each element " + input.element() + ")" : "")
                        + where + " (" + input.request().prompt() + "): answer it (planvm answer " + run.id()
                        + " --value JSON)");
            }
        });
        return continueRun(run, continuation(run, request, secrets), force);
    }

    /** See {@link DurableRuns#answer}. */
    DurableRun answer(String runId, String callId, JsonNode value, RunRequest request, Map<String, JsonNode> secrets) {
        DurableRuns.Tree tree = WaitTrees.tree(store, find(runId));
        StoredRun run = tree.waiting();
        StoredInput input = waits.input(run, callId);
        refusal(input, value).ifPresent(reason -> {
            throw new DurableRunException(
                    FailureKind.REJECTED_BEFORE_RUNNING, "run " + run.id() + " keeps waiting: " + reason);
        });
        Continuing checked = continuation(tree.root(), request, secrets);
        if (!store.stepWaits().answer(run.id(), input.stepIndex(), input.element(), value)) {
            throw new DurableRunException("run " + run.id() + " has no input waiting for an answer any more");
        }
        return continueRun(find(tree.root().id()), checked, false);
    }

    /** See {@link DurableRuns#refusal}. */
    Optional<String> refusal(StoredInput input, JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return Optional.of("no answer was given");
        }
        Optional<JsonValues.Problem> unholdable = JsonValues.find(value);
        if (unholdable.isPresent()) {
            String at = unholdable.get().pointer().isEmpty()
                    ? ""
                    : " at " + unholdable.get().pointer();
            return Optional.of("the answer" + at + " is " + unholdable.get().description()
                    + ", which JSON cannot hold (a stored run could not keep it)");
        }
        try {
            vm.runLimits().checkValue("the answer", value);
        } catch (LimitReached tooLarge) {
            return Optional.of(tooLarge.getMessage());
        }
        return input.request().refusal(value);
    }

    /** See {@link DurableRuns#approve(String, List, boolean, String, RunRequest, Map)}. */
    DurableRun approve(
            String runId,
            List<String> callIds,
            boolean approved,
            String reason,
            RunRequest request,
            Map<String, JsonNode> secrets) {
        DurableRuns.Tree tree = WaitTrees.tree(store, find(runId));
        StoredRun run = tree.waiting();
        if (run.status() != RunStatus.WAITING || run.pendingApproval().isEmpty()) {
            throw new DurableRunException("run " + run.id() + " does not wait for approval (it is "
                    + run.status().label()
                    + (store.pendingInput(run.id()).isPresent() && run.status() == RunStatus.WAITING
                            ? ", for input: planvm answer " + runId + " --value JSON"
                            : "")
                    + ")");
        }
        List<StoredApproval> named = waits.approvals(run, callIds);
        Continuing checked = continuation(tree.root(), request, secrets);
        if (!store.stepWaits().decide(run.id(), named, approved, reason)) {
            throw new DurableRunException("run " + run.id() + " has no call waiting for approval any more"
                    + (named.size() > 1 ? " among those named (none was decided)" : ""));
        }
        return continueRun(find(tree.root().id()), checked, false);
    }

    /**
     * The checked request that continues {@code run} after its last committed step: its stored plan, state and
     * options (with the clock of {@link StoredPlans#clocked}), the session's mode without what committed steps
     * replayed.
     */
    private Continuing continuation(StoredRun run, RunRequest request, Map<String, JsonNode> secrets) {
        if (run.status() == RunStatus.SUCCEEDED) {
            throw new DurableRunException("run " + run.id() + " already succeeded: nothing to resume");
        }
        if (run.status() == RunStatus.COMPLETED_WITH_FAILURES) {
            String failed = run.steps().stream()
                    .filter(step ->
                            "keep_going".equals(step.trace().path("handled").asText()))
                    .map(step -> String.valueOf(step.seqNo()))
                    .distinct()
                    .collect(Collectors.joining(", "));
            throw new DurableRunException("run " + run.id() + " completed with failed steps"
                    + (failed.isEmpty() ? "" : " (seq_no " + failed + ")") + ", which it went on past: nothing to"
                    + " resume; planvm rerun " + run.id() + " --from SEQ runs it again from a failed step");
        }
        Checkpoint stored = run.checkpoint();
        Map<String, JsonNode> variables = new LinkedHashMap<>(stored.variables());
        variables.putAll(secrets);
        PlanVm planVm = plans.vmOf(run);
        return new Continuing(
                planVm,
                planVm.check(request.toBuilder()
                        .plan(plans.plan(run))
                        .start(new Checkpoint(stored.position(), stored.steps(), variables))
                        .mode(StoredPlans.skipServed(request.mode(), servedInTree(request.mode(), run)))
                        .options(StoredPlans.clocked(run, request))
                        .build()));
    }

    /**
     * The committed steps whose calls a replay of {@code run} already served: its own, and in a replay those of
     * its child runs at any depth (a plan tool's child is replayed from the same cassette), so that an interrupted
     * or waiting child continued by this session is not served again what it was served before.
     */
    private List<StoredStep> servedInTree(RunMode mode, StoredRun run) {
        if (!(mode instanceof RunMode.Replay)) {
            return run.steps();
        }
        List<StoredStep> steps = new ArrayList<>(run.steps());
        descendantSteps(run.id(), steps, 0);
        return steps;
    }

    private void descendantSteps(String runId, List<StoredStep> into, int depth) {
        if (depth > 64) {
            return;
        }
        for (RunStore.ChildRun child : store.children(runId)) {
            store.find(child.summary().id()).ifPresent(found -> {
                into.addAll(found.steps());
                descendantSteps(found.id(), into, depth + 1);
            });
        }
    }

    /** Claims {@code run} for a new session of this process and runs it, as {@code continuing} says. */
    private DurableRun continueRun(StoredRun run, Continuing continuing, boolean force) {
        RunRequest checked = continuing.request();
        int session = store.claim(run.id(), force);
        if (run.options().clock() == null) {
            store.keepClock(
                    run.id(),
                    checked.options().clock()); // a run stored before runs had clocks keeps this one from now on
        }
        return sessions.run(
                continuing.vm(),
                checked,
                run.id(),
                run.parentRun(),
                checked.start().steps(),
                session);
    }

    private StoredRun find(String runId) {
        return DurableRuns.find(store, runId);
    }
}
