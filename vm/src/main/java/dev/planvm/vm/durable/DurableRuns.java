package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Instruction;
import dev.planvm.instructions.LoadResult;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.JsonValues;
import dev.planvm.tools.ToolPolicy;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.PlanRejectedException;
import dev.planvm.vm.PlanVm;
import dev.planvm.vm.RunMode;
import dev.planvm.vm.RunRequest;
import dev.planvm.vm.RunSession;
import dev.planvm.vm.run.Checkpoint;
import dev.planvm.vm.run.LimitReached;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
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
    private final boolean sleepsWait;
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
        this.sleepsWait = sleepsWait;
    }

    /**
     * The options a new run is stored with: its own, and the VM's approval rules as well, so that a
     * process that continues the run ({@code approve}, {@code resume}) holds its calls to the same rules
     * even when that process was started without them (a denied call must stay denied).
     */
    private RunOptions kept(RunOptions options) {
        java.util.LinkedHashSet<String> globs = new java.util.LinkedHashSet<>(options.approveTools());
        globs.addAll(vm.approveTools().globs());
        RunOptions kept =
                globs.size() == options.approveTools().size() ? options : options.withApproveTools(List.copyOf(globs));
        return withVmPolicy(kept);
    }

    /**
     * {@code options} narrowed by this VM's tool policy too ({@code --allow-tools}/{@code --deny-tools} of the
     * process that creates the run), so a resume in a process started without them still denies what they
     * denied. Deny globs are always added (denying more never widens); the VM's allow globs are kept when the run
     * has none of its own (two allow lists both apply, which one list cannot say: the run's own, narrower by
     * construction of a server request, stays).
     */
    private RunOptions withVmPolicy(RunOptions options) {
        ToolPolicy policy = vm.toolPolicy();
        if (policy.allowsEverything()) {
            return options;
        }
        java.util.LinkedHashSet<String> deny = new java.util.LinkedHashSet<>(options.denyTools());
        deny.addAll(policy.denyGlobs());
        List<String> allow = options.allowTools().stream().anyMatch(rule -> !rule.startsWith("!"))
                ? options.allowTools()
                : java.util.stream.Stream.concat(options.allowTools().stream(), policy.allowGlobs().stream())
                        .toList();
        if (deny.size() == options.denyTools().size()
                && allow.size() == options.allowTools().size()) {
            return options;
        }
        return options.withToolPolicy(allow, List.copyOf(deny));
    }

    /** A run created here and not run yet: its checked request, its parent and the steps it kept. */
    private record Created(RunRequest request, String parent, int stepsBefore, PlanVm vm) {}

    /** The checked request that continues a stored run, and the VM (with the run's plan tools) it runs on. */
    private record Continuing(PlanVm vm, RunRequest request) {}

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
        String id = store.createRun(
                checked.plan(),
                checked.start().variables(),
                checked.mode().label(),
                null,
                null,
                kept(checked.options()));
        store.keepPlanTools(id, vm.planToolsFor(checked.plan()));
        created.put(id, new Created(checked, null, 0, vm));
        return id;
    }

    /**
     * Executes run {@code id}, which {@link #create} or {@link #createRerun} stored in this process, to its end
     * (or until it waits for approval, or is stopped).
     *
     * @throws DurableRunException when this object created no such run, or it ran already (resume it instead)
     */
    @SuppressWarnings("try") // the heartbeat is held while the run executes, never read
    public DurableRun run(String id) {
        Created run = created.remove(id);
        if (run == null) {
            throw new DurableRunException("run " + id + " was not created here or has run already: resume it"
                    + " (planvm resume " + id + ")");
        }
        try (Heartbeat alive = store.heartbeat(id)) {
            return ended(
                    id, run.parent(), run.stepsBefore(), execute(run.vm(), run.request(), id, run.stepsBefore(), 1));
        }
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
    @SuppressWarnings("try") // the heartbeat is held while the run executes, never read
    public DurableRun replan(String runId, int fromSeq, Plan plan, RunSession session) {
        StoredRun run = find(runId);
        Plan before = plan(run);
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
        PlanVm planVm = vmForNewRunOf(run);
        RunRequest checked = planVm.check(RunRequest.builder(plan)
                .start(new Checkpoint(position, kept.size(), variables))
                .session(session)
                .options(RunOptions.DEFAULT.withClock(run.options().clock())) // the parent's dates, when it has a clock
                .build());
        String id =
                store.createRun(plan, run.inputs(), session.mode().label(), run.id(), fromSeq, kept(checked.options()));
        store.keepPlanTools(id, planVm.planToolsFor(plan));
        try (Heartbeat alive = store.heartbeat(id)) {
            for (StoredStep step : kept) {
                store.commitStep(id, step);
            }
            return ended(id, run.id(), kept.size(), execute(planVm, checked, id, kept.size(), 1));
        }
    }

    /**
     * The lowest seq_no below {@code fromSeq} whose instruction differs between the two plans (changed,
     * removed or added), or {@code null} when they agree before {@code fromSeq}.
     */
    private static Integer firstChangeBefore(Plan before, Plan after, int fromSeq) {
        java.util.TreeSet<Integer> changed = new java.util.TreeSet<>();
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
        StoredRun run = find(runId);
        StoredRun waiting = tree(run).waiting();
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

    /**
     * Where a stored run's wait is: the run that waits for a call ({@code waiting}: the run itself, or the child
     * run — at any depth — whose wait its parent waits for) and the top of the waiting tree ({@code root}: the run
     * itself, or the waiting parent — at any height — of a waiting child), which a decision continues: its step
     * runs again and continues the waiting child, which finds the decision.
     */
    public record Tree(StoredRun waiting, StoredRun root) {}

    /** The waiting tree of {@code run} ({@link Tree}): for a run that does not wait for a child, the run twice. */
    public Tree tree(StoredRun run) {
        return tree(store, run);
    }

    private static Tree tree(RunStore store, StoredRun run) {
        StoredRun waiting = run;
        for (int depth = 0; depth < 64 && waitsForAChild(store, waiting); depth++) {
            Optional<StoredRun> child = store.children(waiting.id()).stream()
                    .filter(c -> c.summary().status() == RunStatus.WAITING)
                    .reduce((first, last) -> last)
                    .flatMap(c -> store.find(c.summary().id()));
            if (child.isEmpty()) {
                break;
            }
            waiting = child.get();
        }
        StoredRun root = run;
        for (int height = 0; height < 64 && root.status() == RunStatus.WAITING; height++) {
            Optional<StoredRun> caller = store.caller(root.id())
                    .flatMap(c -> store.find(c.runId()))
                    .filter(c -> c.status() == RunStatus.WAITING);
            if (caller.isEmpty()) {
                break;
            }
            root = caller.get();
        }
        return new Tree(waiting, root);
    }

    /** Whether {@code run} waits with no call of its own pending: one of its child runs waits. */
    private static boolean waitsForAChild(RunStore store, StoredRun run) {
        return run.status() == RunStatus.WAITING
                && run.pendingApproval().isEmpty()
                && store.pendingInput(run.id()).isEmpty();
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
        Tree tree = tree(find(runId));
        StoredRun run = tree.waiting();
        StoredInput input = waits.input(run, callId);
        refusal(input, value).ifPresent(reason -> {
            throw new DurableRunException(
                    dev.planvm.vm.run.FailureKind.REJECTED_BEFORE_RUNNING,
                    "run " + run.id() + " keeps waiting: " + reason);
        });
        Continuing checked = continuation(tree.root(), request, secrets);
        if (!store.answer(run.id(), input.stepIndex(), input.element(), value)) {
            throw new DurableRunException("run " + run.id() + " has no input waiting for an answer any more");
        }
        return continueRun(find(tree.root().id()), checked, false);
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
        return new Waits(store).of(tree(store, find(store, runId)).waiting());
    }

    /** How a session of run {@code id} ended, with the calls it waits for when it ended waiting. */
    private DurableRun ended(String id, String parent, int stepsBefore, RunResult result) {
        return new DurableRun(
                id,
                parent,
                stepsBefore,
                result,
                result.waiting() ? waits.of(tree(find(id)).waiting()) : List.of());
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
        Tree tree = tree(find(runId));
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
        if (!store.decide(run.id(), named, approved, reason)) {
            throw new DurableRunException("run " + run.id() + " has no call waiting for approval any more"
                    + (named.size() > 1 ? " among those named (none was decided)" : ""));
        }
        return continueRun(find(tree.root().id()), checked, false);
    }

    /**
     * The checked request that continues {@code run} after its last committed step: its stored plan, state and
     * options (with the clock of {@link #clocked}), the session's mode without what committed steps replayed.
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
                    .collect(java.util.stream.Collectors.joining(", "));
            throw new DurableRunException("run " + run.id() + " completed with failed steps"
                    + (failed.isEmpty() ? "" : " (seq_no " + failed + ")") + ", which it went on past: nothing to"
                    + " resume; planvm rerun " + run.id() + " --from SEQ runs it again from a failed step");
        }
        Checkpoint stored = run.checkpoint();
        Map<String, JsonNode> variables = new LinkedHashMap<>(stored.variables());
        variables.putAll(secrets);
        PlanVm planVm = vmOf(run);
        return new Continuing(
                planVm,
                planVm.check(request.toBuilder()
                        .plan(plan(run))
                        .start(new Checkpoint(stored.position(), stored.steps(), variables))
                        .mode(skipServed(request.mode(), servedInTree(request.mode(), run)))
                        .options(clocked(run, request))
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

    @SuppressWarnings("try") // the heartbeat is held while the run executes, never read
    private DurableRun continueRun(StoredRun run, Continuing continuing, boolean force) {
        RunRequest checked = continuing.request();
        int session = store.claim(run.id(), force);
        if (run.options().clock() == null) {
            store.keepClock(
                    run.id(),
                    checked.options().clock()); // a run stored before runs had clocks keeps this one from now on
        }
        try (Heartbeat alive = store.heartbeat(run.id())) {
            return ended(
                    run.id(),
                    run.parentRun(),
                    checked.start().steps(),
                    execute(continuing.vm(), checked, run.id(), checked.start().steps(), session));
        }
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
        StoredRun run = find(runId);
        Plan original = plan(run);
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
        PlanVm planVm = vmForNewRunOf(run);
        RunRequest checked = planVm.check(request.toBuilder()
                .plan(plan)
                .start(new Checkpoint(position, kept.size(), variables))
                .mode(skipServed(request.mode(), kept))
                .options(clocked(run, request))
                .build());
        String id = store.createRun(plan, inputs, checked.mode().label(), run.id(), fromSeq, kept(checked.options()));
        store.keepPlanTools(id, planVm.planToolsFor(plan));
        for (StoredStep step : kept) {
            store.commitStep(id, step);
        }
        created.put(id, new Created(checked, run.id(), kept.size(), planVm));
        return id;
    }

    /**
     * Fails run {@code runId}, which waits — for approval, an answer or its sleep's timer — without running it: its
     * pending call is neither approved nor denied, nor answered, its sleep never wakes; so do the child runs (a plan
     * tool's) whose wait it waits for. Returns false when the run does not wait (any more).
     */
    public boolean cancelWaiting(String runId, String reason) {
        StoredRun run = find(runId);
        List<StoredRun> waitingChildren = new ArrayList<>();
        StoredRun waiting = run;
        for (int depth = 0; depth < 64 && waitsForAChild(store, waiting); depth++) {
            Optional<StoredRun> child = store.children(waiting.id()).stream()
                    .filter(c -> c.summary().status() == RunStatus.WAITING)
                    .reduce((first, last) -> last)
                    .flatMap(c -> store.find(c.summary().id()));
            if (child.isEmpty()) {
                break;
            }
            waiting = child.get();
            waitingChildren.add(waiting);
        }
        String what = waiting.pendingApproval().isPresent()
                ? "approval"
                : store.pendingInput(waiting.id()).isPresent()
                        ? "input"
                        : store.wakeAt(waiting.id()).isPresent() ? "its sleep to end" : "a child run";
        String why = reason == null || reason.isBlank() ? "" : ": " + reason;
        if (!store.cancelWaiting(run.id(), "the run was cancelled while waiting for " + what + why)) {
            return false;
        }
        for (StoredRun child : waitingChildren) {
            store.cancelWaiting(
                    child.id(), "its parent run " + run.id() + " was cancelled while waiting for " + what + why);
        }
        return true;
    }

    /** One session of stored run {@code id}, journaled as session {@code session}, approvals kept in the store. */
    private RunResult execute(PlanVm planVm, RunRequest checked, String id, int stepsBefore, int session) {
        Approvals reviewer = checked.approvals() != null ? checked.approvals() : planVm.reviewer();
        StoreJournal journal = new StoreJournal(store, id, stepsBefore, session, checked.plan())
                .reviewer(reviewer)
                .sleepsWait(sleepsWait);
        return planVm.run(checked.toBuilder()
                .journal(journal)
                .approvals(new StoreApprovals(store, id, journal, reviewer))
                .build());
    }

    /**
     * The VM that continues {@code run}: this one with the plan tools the run started with ({@link PlanVm#withPlanTools};
     * a child run's are its top caller's), so a later edit of a plan-tool folder, or a process started without
     * {@code --plan-tools}, does not change it; this VM itself for a run stored with none, or before runs kept them.
     */
    private PlanVm vmOf(StoredRun run) {
        return vm.withPlanTools(keptPlanTools(run));
    }

    /**
     * The VM of a new run made from {@code run} (a rerun, a re-plan): a new run takes the plan tools this process
     * has as they are now, like any new run — a plan tool fixed since is fixed in the rerun — and those the run
     * started with for the others, so a process started without {@code --plan-tools} needs none.
     */
    private PlanVm vmForNewRunOf(StoredRun run) {
        List<Plan> missing = keptPlanTools(run).stream()
                .filter(plan -> plan.signature()
                        .map(s -> vm.tools().findResolved(s.name()).isEmpty())
                        .orElse(false))
                .toList();
        return vm.withPlanTools(missing);
    }

    /** The plan tools {@code run} (or, for a child run, its top caller) started with; none when it kept none. */
    private List<Plan> keptPlanTools(StoredRun run) {
        String id = run.id();
        for (int height = 0; height < 64; height++) {
            List<PlanToolRows.Kept> kept = store.planTools(id);
            if (kept != null) {
                List<Plan> plans = new ArrayList<>();
                for (PlanToolRows.Kept tool : kept) {
                    LoadResult loaded = vm.loader().load(tool.document(), tool.source());
                    if (!loaded.valid()) {
                        throw new DurableRunException("the plan tool " + tool.source() + " that run " + run.id()
                                + " started with does not load here: "
                                + loaded.errors().get(0).message());
                    }
                    plans.add(loaded.plan().withSourceLines(tool.sourceLines()));
                }
                return plans;
            }
            Optional<RunStore.Caller> caller = store.caller(id);
            if (caller.isEmpty()) {
                return List.of();
            }
            id = caller.get().runId();
        }
        return List.of();
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

    /**
     * The stored run's options with the clock this session runs with: the request's clock when it brings
     * one, else the stored one, else none (a run stored before runs had clocks: {@link PlanVm#check} fixes one).
     */
    private static RunOptions clocked(StoredRun run, RunRequest request) {
        RunClock clock = request.options().clock() != null
                ? request.options().clock()
                : run.options().clock();
        return run.options().withClock(clock);
    }

    /**
     * The stored run's plan, loaded again by this VM: the StackVM JSON it ran (a dialect plan's compiled
     * JSON), with the source lines it was compiled from.
     */
    private Plan plan(StoredRun run) {
        LoadResult loaded = vm.loader().load(run.plan(), run.planSource());
        if (!loaded.valid()) {
            throw new DurableRunException("the stored plan of run " + run.id() + " does not load here: "
                    + loaded.errors().get(0).message());
        }
        return loaded.plan().withSourceLines(run.sourceLines());
    }

    /** A replay without the interactions the given committed steps already used. */
    private static RunMode skipServed(RunMode mode, List<StoredStep> committed) {
        if (!(mode instanceof RunMode.Replay replay)) {
            return mode;
        }
        List<Call> served = new ArrayList<>();
        committed.forEach(step -> served.addAll(step.calls()));
        return RunMode.replay(replay.cassette().remaining(served), replay.timing(), replay.live());
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
