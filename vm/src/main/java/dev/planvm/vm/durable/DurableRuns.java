package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Durable runs: runs whose every committed step is in a {@link RunStore}, so that a run whose
 * process died can be resumed where it stopped, and any stored run can be rerun from a step with
 * edited inputs. This is the Java API the {@code run}, {@code resume} and {@code rerun} commands
 * call.
 *
 * <pre>{@code
 * try (RunStore store = RunStore.open(Path.of(".planvm/runs.db"), vm.redactor())) {
 *     DurableRuns runs = new DurableRuns(vm, store);
 *     DurableRun run = runs.start(plan, inputs, RunMode.live());
 *     // or in two steps: String id = runs.create(RunRequest.of(plan, inputs, RunMode.live())); runs.run(id);
 *     // ... the process dies; later, in another process:
 *     DurableRun resumed = runs.resume(run.id(), RunMode.live(), Map.of());
 * }
 * }</pre>
 *
 * <p>A run that calls a tool needing a reviewer's approval ({@code approveTools}) stops {@code waiting}
 * with the pending call stored; {@link #approve} records the decision and continues it, in this
 * process or any other, also after a restart.
 *
 * <p>Guarantees: no committed step runs again on resume, so a committed call is never re-invoked;
 * the step that was in flight when a process died runs again (at-least-once for calls in flight).
 * A request refused before running (an unknown run, a plan that cannot run here) writes nothing to
 * the store. Replaying a cassette skips the interactions the kept steps already used.
 */
public final class DurableRuns {

    private final PlanVm vm;
    private final RunStore store;
    private final Waits waits;
    private final StoredPlans plans;
    private final StoredSessions sessions;
    private final Continuations continuations;
    private final Reruns reruns;
    private final Map<String, Created> created = new ConcurrentHashMap<>();

    /** Durable runs whose sleeps sleep on the run's thread (the command line: the process is the timer). */
    public DurableRuns(PlanVm vm, RunStore store) {
        this(vm, store, false);
    }

    /**
     * @param sleepsWait whether a run that reaches a {@code sleep} with time left stops, {@code waiting} for its
     *                   timer with the wake time stored ({@link RunStore#sleeping}), instead of holding its thread
     *                   while it sleeps: a server's runs, which its timers continue when they are due
     *                   ({@link #resume}); a run that waits holds no thread and no slot
     */
    public DurableRuns(PlanVm vm, RunStore store, boolean sleepsWait) {
        this.vm = Objects.requireNonNull(vm, "vm");
        this.store = Objects.requireNonNull(store, "store");
        this.waits = new Waits(store);
        this.plans = new StoredPlans(vm, store);
        this.sessions = new StoredSessions(store, sleepsWait);
        this.continuations = new Continuations(vm, store, plans, sessions);
        this.reruns = new Reruns(store, plans, sessions);
    }

    /** A run created here and not run yet: its id, checked request, its parent, the steps it kept and its VM. */
    record Created(String id, RunRequest request, String parent, int stepsBefore, PlanVm vm) {}

    /**
     * Stores a new run of the request's plan from the request's start (a fresh start with its inputs) and
     * returns its id; nothing executes until {@link #run(String)}. The plan is checked here, once
     * ({@link PlanVm#check}), and the run's clock fixed and stored with its options, which apply again when it
     * is resumed or approved.
     *
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     * @throws IllegalArgumentException for a request with no plan, or one that does not start fresh
     */
    public String create(RunRequest request) {
        if (request.plan() == null
                || request.start().position() != 0
                || request.start().steps() != 0) {
            throw new IllegalArgumentException("a new run needs a plan and a fresh start (its inputs)");
        }
        RunRequest checked = vm.check(request);
        String id = plans.createRun(
                vm, checked.plan(), checked.start().variables(), checked.mode().label(), null, null, checked.options());
        created.put(id, new Created(id, checked, null, 0, vm));
        return id;
    }

    /**
     * Executes run {@code id}, which {@link #create} or {@link #createRerun} stored in this process, to its end
     * (or until it waits for approval, or is stopped).
     *
     * @throws DurableRunException when this object created no such run, or it ran already (resume it instead)
     */
    public DurableRun run(String id) {
        Created run = created.remove(id);
        if (run == null) {
            throw new DurableRunException("run " + id + " was not created here or has run already: resume it"
                    + " (planvm resume " + id + ")");
        }
        return sessions.run(run.vm(), run.request(), id, run.parent(), run.stepsBefore(), 1);
    }

    /** {@link #create} then {@link #run(String)}: a new stored run of the request's plan, run to its end. */
    public DurableRun start(RunRequest request) {
        return run(create(request));
    }

    /**
     * A new stored run of {@code plan} from its start, in {@code mode}.
     *
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     */
    public DurableRun start(Plan plan, Map<String, JsonNode> inputs, RunMode mode) {
        return start(RunRequest.of(plan, inputs, mode));
    }

    /**
     * A new stored run (recording its parent, as a rerun does) of {@code plan}: a new version of run
     * {@code runId}'s plan that keeps its instructions before {@code fromSeq} as they were and replaces
     * the rest — an agent's re-plan after a step failed. The new run keeps what {@code runId} committed
     * (all of it when the run stopped at {@code fromSeq}, else what it committed before it first reached
     * {@code fromSeq}) and runs {@code plan} from {@code fromSeq}, in {@code session}.
     *
     * @throws DurableRunException for an unknown run, a {@code fromSeq} {@code plan} lacks, or a plan
     *                             that changes an instruction before {@code fromSeq}
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     */
    public DurableRun replan(String runId, int fromSeq, Plan plan, RunSession session) {
        return reruns.replan(runId, fromSeq, plan, session);
    }

    /** {@link #resume(String, RunRequest, Map, boolean)} of a run no live process owns, in {@code mode}. */
    public DurableRun resume(String runId, RunMode mode, Map<String, JsonNode> secrets) {
        return resume(runId, RunRequest.builder().mode(mode).build(), secrets, false);
    }

    /**
     * Continues a stored run after its last committed step, with its stored plan, inputs and options. This
     * process claims the run first: a run another live process works on is refused (its owner holds a
     * lease it renews), unless {@code force}; a run whose owner died is taken over.
     *
     * @param request this session's mode (live, or a replay whose interactions already used by committed steps
     *                are skipped), listeners, reviewer and control; the stored options apply, not the request's,
     *                but a clock in its options replaces the stored clock ({@code resume --now})
     * @param secrets secret variables to give again (their stored values are redacted), name to value
     * @param force   take the run over even when its owner looks alive (after making sure it died)
     * @throws DurableRunException for an unknown or ambiguous id, a run that already succeeded, one that
     *                             waits for approval (see {@link #approve}) or input (see {@link #answer}), or one
     *                             another live process works on
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     */
    public DurableRun resume(String runId, RunRequest request, Map<String, JsonNode> secrets, boolean force) {
        return continuations.resume(runId, request, secrets, force);
    }

    /**
     * Where a stored run's wait is: the run that waits for a call ({@code waiting}: the run itself, or the child
     * run — at any depth — whose wait its parent waits for) and the top of the waiting tree ({@code root}: the run
     * itself, or the waiting parent — at any height — of a waiting child), which a decision continues: its step
     * runs again and continues the waiting child, which finds the decision.
     */
    public record Tree(StoredRun waiting, StoredRun root) {}

    /** The waiting tree of {@code run} ({@link Tree}): for a run that does not wait for a child, the run twice. */
    public Tree tree(StoredRun run) {
        return WaitTrees.tree(store, run);
    }

    /**
     * Answers the {@code human_input} call run {@code runId} waits for (itself, or the child run whose wait it
     * waits for; a child's id continues its waiting parent too), then continues the run as
     * {@link #approve} does: the waiting step runs again and finds the answer, which becomes the call's
     * output. A wrong answer (not one of the choices, not fitting the schema) is refused and the run keeps
     * waiting.
     *
     * @param callId the pending call's id ({@link StoredInput#callId}), or {@code null} for whichever waits
     * @throws DurableRunException for an unknown run, one that does not wait for input, another call id
     *                             ({@link dev.planvm.vm.run.FailureKind#CONFLICT}), or a wrong answer
     *                             ({@link dev.planvm.vm.run.FailureKind#REJECTED_BEFORE_RUNNING}, naming the reason)
     * @throws PlanRejectedException before anything is run, when the plan cannot run here
     */
    public DurableRun answer(
            String runId, String callId, JsonNode value, RunRequest request, Map<String, JsonNode> secrets) {
        return continuations.answer(runId, callId, value, request, secrets);
    }

    /**
     * The {@code human_input} call run {@code runId} waits for (the first, when elements of a {@code for_each} step wait
     * for several).
     *
     * @throws DurableRunException for an unknown run, or one that does not wait for input
     */
    public StoredInput pendingInput(String runId) {
        return waits.input(tree(find(runId)).waiting(), null);
    }

    /**
     * The calls run {@code runId} waits for a person about — its own, or those of the child run (a plan tool's) it
     * waits for: the approvals, then the questions, of the step it waits at, each in element order (several for a
     * {@code for_each} step whose elements wait, one otherwise). The first is the one the run's message, {@code
     * planvm show}, the HTTP API, MCP and the run browser name, and the one {@link #approve(String, boolean, String,
     * RunRequest, Map)} decides and {@link #answer} answers without a call id. Empty when it does not wait.
     *
     * @throws DurableRunException for an unknown run
     */
    public List<WaitingCall> waiting(String runId) {
        return waits.of(tree(find(runId)).waiting());
    }

    /** {@link #waiting(String)} of a run of {@code store}, for a reader that runs nothing ({@code planvm show}). */
    public static List<WaitingCall> waiting(RunStore store, String runId) {
        return new Waits(store).of(WaitTrees.tree(store, find(store, runId)).waiting());
    }

    /**
     * Why {@code value} cannot answer {@code input}, in one sentence, or empty when it can: the one check of an
     * answer, made when it is given ({@link #answer}, and every front end before it accepts one), so that an answer
     * the run could not hold is refused while the run still waits instead of failing the run when it goes on. An
     * answer must be a value JSON can hold (no number beyond a double, such as {@code 1e400}; no text with a lone
     * surrogate, which the store would keep as {@code ?}), no larger or deeper than one variable of this VM's runs
     * ({@link PlanVm#runLimits}: 5 MiB and 500 levels by default), and fit the input's schema or be one of its
     * choices.
     */
    public Optional<String> refusal(StoredInput input, JsonNode value) {
        return continuations.refusal(input, value);
    }

    /**
     * Records a reviewer's decision about the call run {@code runId} waits for (itself, or the child run — a plan
     * tool's — whose wait it waits for; a child's id continues its waiting parent too, see {@link Tree}), then
     * continues the run as {@link #resume} does (claim and lease included): the waiting step runs again and finds the
     * decision; approved, the call is made; denied, the step fails with {@code denied by a reviewer:
     * REASON} (a re-plan sees the reason in the run's error). When elements of a {@code for_each} step wait, this
     * decides the first of them ({@link #waiting}) only: the run goes on with it and waits again for the next.
     *
     * @param request this session's mode, listeners, reviewer and control (as for {@link #resume})
     * @throws DurableRunException for an unknown run, or one that does not wait for approval
     * @throws PlanRejectedException before anything is run, when the plan cannot run here
     */
    public DurableRun approve(
            String runId, boolean approved, String reason, RunRequest request, Map<String, JsonNode> secrets) {
        return approve(runId, List.of(), approved, reason, request, secrets);
    }

    /**
     * {@link #approve(String, boolean, String, RunRequest, Map)} of the calls {@code callIds} name ({@link
     * StoredApproval#callId}, {@link WaitingCall#callId}) among those the run waits for: each is decided alike, in
     * one transaction, then the run continues. Naming several is how many calls are approved at once ({@code planvm
     * approve RUN --all} names every call {@link #waiting} lists); none named decides the first.
     *
     * @throws DurableRunException for an unknown run, one that does not wait for approval, or an id it does not wait
     *                             for (nothing is decided then)
     */
    public DurableRun approve(
            String runId,
            List<String> callIds,
            boolean approved,
            String reason,
            RunRequest request,
            Map<String, JsonNode> secrets) {
        return continuations.approve(runId, callIds, approved, reason, request, secrets);
    }

    /**
     * A new stored run (recording its parent) that keeps what {@code runId} committed before it
     * first reached {@code fromSeq}, applies {@code edits} (they also override variables of the same
     * name at {@code fromSeq}) and runs from {@code fromSeq}. When the run failed at {@code fromSeq},
     * all its committed steps are kept: fix an input, rerun the failed step.
     *
     * @throws DurableRunException for an unknown run or a {@code seq_no} it has not or never reached
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     */
    public DurableRun rerun(String runId, int fromSeq, Map<String, JsonNode> edits, RunMode mode) {
        return run(createRerun(
                runId, fromSeq, edits, null, RunRequest.builder().mode(mode).build()));
    }

    /**
     * Stores the new run of a rerun (see {@link #rerun(String, int, Map, RunMode)}) with the steps it keeps and
     * returns its id; nothing executes until {@link #run(String)}. The new run runs {@code edited}, an edited
     * version of the run's plan (or the run's own plan when {@code null}): it must keep every instruction before
     * {@code fromSeq} as it was (none changed, removed or added), since the new run keeps what those committed;
     * the instructions from {@code fromSeq} on are the edited plan's. It keeps its parent's options, its clock
     * included (unless the request's options bring a clock: {@code rerun --now}).
     *
     * @param request this run's mode, listeners, reviewer and control (its plan and start are the rerun's)
     * @throws DurableRunException for an unknown run or a {@code seq_no} it has not or never reached; also
     *                             when {@code edited} lacks {@code fromSeq} or changes an instruction before it
     *                             (the message names the first such seq_no)
     * @throws PlanRejectedException before anything is stored, when the plan cannot run here
     */
    public String createRerun(String runId, int fromSeq, Map<String, JsonNode> edits, Plan edited, RunRequest request) {
        Created rerun = reruns.createRerun(runId, fromSeq, edits, edited, request);
        created.put(rerun.id(), rerun);
        return rerun.id();
    }

    /**
     * Fails run {@code runId}, which waits — for approval, an answer or its sleep's timer — without running it: its
     * pending call is neither approved nor denied, nor answered, its sleep never wakes; so do the child runs (a plan
     * tool's) whose wait it waits for. Returns false when the run does not wait (any more).
     */
    public boolean cancelWaiting(String runId, String reason) {
        return WaitTrees.cancelWaiting(store, find(runId), reason);
    }

    /** The stored run, or a {@link DurableRunException} saying why not. */
    public StoredRun find(String runId) {
        return find(store, runId);
    }

    /** The run of {@code store} whose id is {@code runId} or starts with it, or a {@link DurableRunException} saying why not. */
    public static StoredRun find(RunStore store, String runId) {
        try {
            return store.find(runId)
                    .orElseThrow(() -> DurableRunException.noSuchRun(
                            "no run '" + runId + "' in " + store.file() + " (see planvm runs)"));
        } catch (StoreException ambiguous) {
            throw new DurableRunException(ambiguous.getMessage());
        }
    }
}
