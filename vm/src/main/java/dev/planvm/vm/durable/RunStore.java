package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Durable runs in an embedded SQLite database (WAL journal): a run, its plan and inputs, and one
 * row per committed step, each written in its own transaction when the step commits — so a
 * process that dies at any point loses at most the step that was running. The schema
 * ({@code schema.sql}) is plain SQL. Thread-safe (one connection, methods synchronized).
 *
 * <ul>
 *   <li><b>Durability</b>: {@link Durability#FULL} (the default) syncs every commit to the disk, so
 *       a committed step survives a power loss or an OS crash; {@link Durability#PROCESS} only
 *       survives the process dying (SQLite {@code synchronous=NORMAL}: the last commits may be lost
 *       when the machine goes down), for about half the cost per step.</li>
 *   <li><b>Bounded growth</b>: large values are stored once per content ({@link Blobs}), and a run
 *       may write at most {@link Settings#maxRunBytes()} to the store: a step that would pass it is
 *       not committed and the run stops with a sentence. {@link #prune} removes old runs.</li>
 *   <li><b>Ownership</b>: the process working on a run holds a lease on it, renewed while it works;
 *       {@link #claim} lets one process take over a run whose owner is gone (its lease ran out, or
 *       it is a dead process of this host), atomically, so two resumes cannot both proceed.</li>
 * </ul>
 */
public final class RunStore implements AutoCloseable {

    /** Where the CLI keeps runs unless told otherwise. */
    public static final Path DEFAULT_PATH = Path.of(".planvm", "runs.db");

    /** What a committed step survives. */
    public enum Durability {
        /** A process crash, a power loss and an OS crash: every commit is synced to the disk. */
        FULL,
        /** A process crash only: commits reach the OS, which writes them out later. */
        PROCESS;

        /** {@code full} or {@code process}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * How a store is opened.
     *
     * @param durability  what a committed step survives
     * @param maxRunBytes the most one run may write to the store (steps, trace entries, new values)
     * @param lease       how long a run's owner holds it without renewing (it renews every third of it)
     */
    public record Settings(Durability durability, long maxRunBytes, Duration lease) {
        /** Full durability, 256 MiB per run, a 30 s lease. */
        public static final Settings DEFAULT =
                new Settings(Durability.FULL, 256L * 1024 * 1024, Duration.ofSeconds(30));

        public Settings {
            Objects.requireNonNull(durability, "durability");
            Objects.requireNonNull(lease, "lease");
            if (maxRunBytes < 1 || lease.isNegative() || lease.isZero()) {
                throw new IllegalArgumentException("maxRunBytes and lease must be positive");
            }
        }

        public Settings withDurability(Durability value) {
            return new Settings(value, maxRunBytes, lease);
        }

        public Settings withMaxRunBytes(long value) {
            return new Settings(durability, value, lease);
        }

        public Settings withLease(Duration value) {
            return new Settings(durability, maxRunBytes, value);
        }
    }

    private final StoreDatabase db;
    private final StoreJson json;
    private final Blobs blobs;
    private final RunOwnership ownership;
    private final RunRows runs;
    private final ChildRunRows children;
    private final StepRows steps;
    private final ApprovalRows approvals;
    private final WaitRows waits;
    private final RunReader reader;
    private final PlanToolRows planTools;
    private final StepWaits stepWaits;
    private final Settings settings;

    private RunStore(StoreDatabase db, Redactor redactor, Settings settings) {
        this.db = db;
        this.json = new StoreJson(redactor);
        this.blobs = new Blobs(db);
        this.ownership = new RunOwnership(db, settings.lease());
        this.runs = new RunRows(db, json, ownership);
        this.planTools = new PlanToolRows(db, blobs);
        this.approvals = new ApprovalRows(db);
        this.waits = new WaitRows(db);
        this.reader = new RunReader(db, blobs, approvals);
        this.children = new ChildRunRows(db, json, reader);
        this.stepWaits = new StepWaits(this, approvals, waits, json);
        this.steps = new StepRows(db, blobs, json, settings.maxRunBytes());
        this.settings = settings;
    }

    /** Opens (creating when needed) the store at {@code file}. */
    public static RunStore open(Path file) {
        return open(file, Redactor.none(), Settings.DEFAULT);
    }

    /** Opens (creating when needed) the store; every JSON value written to it first goes through {@code redactor}. */
    public static RunStore open(Path file, Redactor redactor) {
        return open(file, redactor, Settings.DEFAULT);
    }

    public static RunStore open(Path file, Redactor redactor, Settings settings) {
        return new RunStore(StoreDatabase.open(file, true, settings.durability()), redactor, settings);
    }

    /**
     * Opens the store at {@code file} only if it exists (read-only commands never create one): a
     * missing store is a {@link DurableRunException} that says where runs are kept.
     */
    public static RunStore openExisting(Path file) {
        if (!java.nio.file.Files.exists(file)) {
            throw DurableRunException.noSuchRun("there is no run store at " + file
                    + " (runs are kept where planvm run was " + "started: .planvm/runs.db, or --store / PLANVM_STORE)");
        }
        return new RunStore(
                StoreDatabase.open(file, false, Settings.DEFAULT.durability()), Redactor.none(), Settings.DEFAULT);
    }

    public Path file() {
        return db.file();
    }

    public Settings settings() {
        return settings;
    }

    /** Records a new run (status {@code running}, owned by this process) and returns its id. */
    public String createRun(Plan plan, Map<String, JsonNode> inputs, String mode, String parentRun, Integer fromSeq) {
        return createRun(plan, inputs, mode, parentRun, fromSeq, RunOptions.DEFAULT);
    }

    /** Records a new run with its own options (status {@code running}, owned by this process) and returns its id. */
    public synchronized String createRun(
            Plan plan,
            Map<String, JsonNode> inputs,
            String mode,
            String parentRun,
            Integer fromSeq,
            RunOptions options) {
        return runs.create(plan, inputs, mode, parentRun, fromSeq, options, null, null, null);
    }

    /** Keeps the plan tools run {@code runId} starts with, by content ({@link PlanToolRows}). */
    synchronized void keepPlanTools(String runId, List<Plan> tools) {
        planTools.keep(runId, tools);
    }

    /** The plan tools run {@code runId} started with, or {@code null} when none were kept ({@link PlanToolRows#of}). */
    synchronized List<PlanToolRows.Kept> planTools(String runId) {
        return planTools.of(runId);
    }

    /**
     * Records a new child run (a plan tool's) of run {@code callerRun}, started by its call at
     * {@code callerSeq} (status {@code running}, owned by this process), and returns its id.
     */
    public synchronized String createChildRun(
            Plan plan, Map<String, JsonNode> inputs, String mode, RunOptions options, String callerRun, int callerSeq) {
        return runs.create(plan, inputs, mode, null, null, options, callerRun, callerSeq, null);
    }

    /**
     * {@link #createChildRun(Plan, Map, String, RunOptions, String, int)}, knowing that the caller had
     * committed {@code callerStep - 1} steps when the call started it: once the caller has committed
     * {@code callerStep} steps or more, the step that made the call is committed and the child's answer used.
     */
    public synchronized String createChildRun(
            Plan plan,
            Map<String, JsonNode> inputs,
            String mode,
            RunOptions options,
            String callerRun,
            int callerSeq,
            int callerStep) {
        return runs.create(plan, inputs, mode, null, null, options, callerRun, callerSeq, callerStep);
    }

    /**
     * A child run of {@code callerRun}'s call at {@code callerSeq} with these inputs that succeeded after the
     * caller's last committed step ({@code committedSteps} of them): the caller stopped (its process died)
     * between the child's end and its own commit, so the child's answer was never used. The oldest such
     * one not in {@code taken}; children stored by an earlier planvm (no {@code caller_step}) never are.
     */
    public synchronized Optional<String> unusedChild(
            String callerRun, int callerSeq, int committedSteps, Map<String, JsonNode> inputs, Set<String> taken) {
        return children.unusedChild(callerRun, callerSeq, committedSteps, inputs, taken);
    }

    /**
     * Where a child run was called from.
     *
     * @param runId the run whose plan-tool call started it
     * @param seqNo the seq_no of that call
     */
    public record Caller(String runId, int seqNo) {}

    /**
     * A child run of a run, as {@code planvm show} lists it.
     *
     * @param seqNo   the seq_no of the call in the caller that started it
     * @param summary the child's list line
     */
    public record ChildRun(int seqNo, RunSummary summary) {}

    /** The run whose plan-tool call started run {@code id} (its exact id), when it is a child run. */
    public synchronized Optional<Caller> caller(String id) {
        return children.caller(id);
    }

    /** The child runs that calls of run {@code id} started, in the order they started. */
    public synchronized List<ChildRun> children(String id) {
        return children.children(id);
    }

    /**
     * The child run of run {@code callerRun}'s call at {@code callerSeq} that was interrupted (stored
     * {@code running}) or waits (the newest such), which a resume, approval or answer of the caller continues.
     */
    synchronized Optional<String> interruptedChild(String callerRun, int callerSeq) {
        return children.interruptedChild(callerRun, callerSeq);
    }

    /** Stores {@code clock} as run {@code id}'s clock when it has none (a run stored by an earlier version). */
    public synchronized void keepClock(String id, RunClock clock) {
        runs.keepClock(id, clock);
    }

    /**
     * Makes this process the owner of run {@code id} for a new session (a resume) and returns the
     * session number. Refused with a {@link DurableRunException} when another live process owns it
     * (unless {@code force}); a run whose owner's lease ran out, or whose owner is a dead process of
     * this host, is taken over. The claim is one conditional update: of two processes claiming at
     * once, one wins.
     */
    public synchronized int claim(String id, boolean force) {
        return ownership.claim(id, force);
    }

    /** Extends this process's lease on run {@code id} (the heartbeat calls it). */
    public synchronized void renewLease(String id) {
        ownership.renew(id);
    }

    /** Keeps this process's lease on run {@code id} alive until the returned heartbeat is closed, which {@link #release}s it. */
    Heartbeat heartbeat(String id) {
        return new Heartbeat(this, id, settings.lease());
    }

    /** This process no longer works on run {@code id} (its session ended, or it was abandoned). */
    void release(String id) {
        RunOwnership.release(id);
    }

    /**
     * Writes one committed step, durably, in one transaction, before the run goes on. A step that
     * would take the run past {@link Settings#maxRunBytes()} is not written: a {@link StoreException}.
     */
    public synchronized void commitStep(String runId, StoredStep step) {
        steps.commitStep(runId, step);
    }

    /**
     * Records how a run (or one session of it) ended, and gives up its ownership. A waiting run is
     * stored {@code waiting}; an interrupted one stays {@code running} with no owner (interrupted: any
     * process may resume it at once); neither has a finished time.
     */
    public synchronized void finishRun(String runId, RunResult result) {
        runs.finish(runId, result);
    }

    /**
     * Gives up this process's ownership of run {@code id} while it is still {@code running}: the run is
     * then interrupted (any process may resume it at once). A server shutting down does this for the runs
     * that did not reach a commit point in time. Returns whether this process owned it.
     */
    public synchronized boolean interrupt(String id) {
        return ownership.interrupt(id);
    }

    /** A run waiting at its own {@code sleep} call for its timer, and when it is due. */
    public record Sleeping(String id, Instant wakeAt) {}

    /** Every run waiting at its own {@code sleep} call for its timer, the soonest due first. */
    public synchronized List<Sleeping> sleeping() {
        return runs.sleeping();
    }

    /** When run {@code id}, waiting at its own {@code sleep} call for its timer, is due; empty when it does not. */
    public synchronized Optional<Instant> wakeAt(String id) {
        return runs.wakeAt(id);
    }

    /** Fails a run that waits (for approval, input or its timer), with {@code message}; false when it does not wait. */
    synchronized boolean cancelWaiting(String id, String message) {
        return runs.cancelWaiting(id, message);
    }

    /** The approvals, questions and wake times of the calls that wait, as a running step records them. */
    StepWaits stepWaits() {
        return stepWaits;
    }

    /**
     * Commits the answer of one element of run {@code runId}'s {@code for_each} step {@code stepIndex}
     * (in its own transaction, counted in the run's stored bytes); a second commit of the same element
     * changes nothing.
     */
    synchronized void commitElement(
            String runId, int stepIndex, int seqNo, int position, Call call, JsonNode answer, int session) {
        steps.commitElement(runId, stepIndex, seqNo, position, call, answer, session);
    }

    /**
     * The answers committed for elements of run {@code runId}'s {@code for_each} step {@code stepIndex}
     * (at {@code seqNo}), by position, whose committed call is the same as {@code calls} holds there.
     */
    synchronized Map<Integer, JsonNode> committedElements(String runId, int stepIndex, int seqNo, List<Call> calls) {
        return steps.committedElements(runId, stepIndex, seqNo, calls);
    }

    /**
     * The committed elements of every {@code for_each} step of run {@code id} (the full id), by step and position;
     * the elements that failed or have not answered have none.
     */
    public synchronized List<StoredElement> elements(String id) {
        return steps.elements(id);
    }

    /** Every {@code human_input} call of run {@code id} (the full id), in the order they were asked. */
    public synchronized List<StoredInput> inputs(String id) {
        return waits.inputs(id);
    }

    /**
     * The {@code human_input} call run {@code id} (the full id) waits to have answered, if any: of the calls not answered
     * at the step the run is at, the first element (see {@link #pendingInputs}).
     */
    public synchronized Optional<StoredInput> pendingInput(String id) {
        return pendingInputs(id).stream().findFirst();
    }

    /**
     * The {@code human_input} calls run {@code id} (the full id) waits to have answered: those not answered of the step
     * the run is at (its committed steps + 1), in element order — one for a plain call, one per element that waits
     * for a {@code for_each} step. A question asked at a step the run left (it failed there, then went on) is not one.
     */
    public synchronized List<StoredInput> pendingInputs(String id) {
        return waits.pendingInputs(id);
    }

    /** How many runs the store holds by stored status label ({@code running} includes interrupted runs). */
    public synchronized Map<String, Integer> countByStatus() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        db.query(
                "SELECT status, COUNT(*) FROM runs GROUP BY status ORDER BY status",
                rs -> counts.put(rs.getString(1), rs.getInt(2)));
        return counts;
    }

    /** The most recent runs first. */
    public List<RunSummary> list(int limit) {
        return list(limit, 0, null);
    }

    /**
     * A page of runs, the most recent first: {@code limit} runs after skipping {@code offset}, only those
     * stored with {@code status} when it is not {@code null} ({@link RunStatus#RUNNING} includes interrupted
     * runs; {@link RunSummary#state()} tells them apart).
     */
    public synchronized List<RunSummary> list(int limit, int offset, RunStatus status) {
        return reader.list(limit, offset, status);
    }

    /** The list line of run {@code id} (its exact id), if there is one. */
    public synchronized Optional<RunSummary> summary(String id) {
        return reader.summary(id);
    }

    /** The run whose id is {@code idOrPrefix} or starts with it (when exactly one does). */
    public synchronized Optional<StoredRun> find(String idOrPrefix) {
        return reader.find(idOrPrefix);
    }

    /**
     * Deletes runs that started before {@code now - olderThan} (when not {@code null}) and all but
     * the {@code keep} newest (when not {@code null}), with their steps and the values no remaining
     * run uses; runs a live process works on are kept. Then gives the space back (VACUUM).
     *
     * @return how many runs were deleted
     */
    public synchronized int prune(Duration olderThan, Integer keep) {
        return new Pruning(db, approvals).prune(olderThan, keep);
    }

    @Override
    public synchronized void close() {
        db.close();
    }

    /** SQLite's {@code synchronous} setting of this connection (2 FULL, 1 NORMAL): what the durability chose. */
    synchronized int synchronousPragma() {
        return db.query("PRAGMA synchronous", rs -> rs.getInt(1)).get(0);
    }
}
