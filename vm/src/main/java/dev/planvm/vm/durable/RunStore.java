package dev.planvm.vm.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.planvm.instructions.Plan;
import dev.planvm.instructions.expr.RunClock;
import dev.planvm.json.JsonLimits;
import dev.planvm.json.JsonMappers;
import dev.planvm.tools.Redactor;
import dev.planvm.tools.approval.Approvals;
import dev.planvm.tools.approval.SleepRequired;
import dev.planvm.tools.call.Call;
import dev.planvm.vm.run.RunError;
import dev.planvm.vm.run.RunOptions;
import dev.planvm.vm.run.RunResult;
import dev.planvm.vm.run.RunStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

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

    private static final ObjectMapper MAPPER = JsonMappers.mapper(JsonLimits.STORE);

    /**
     * The runs this process works on now (created or claimed, until their session ends): a run this
     * process owns but no longer works on is not live, and two claims in one process exclude each other.
     */
    private static final Set<String> ACTIVE = ConcurrentHashMap.newKeySet();

    private final StoreDatabase db;
    private final Blobs blobs;
    private final ApprovalRows approvals;
    private final WaitRows waits;
    private final RunReader reader;
    private final PlanToolRows planTools;
    private final Redactor redactor;
    private final Settings settings;

    private RunStore(StoreDatabase db, Redactor redactor, Settings settings) {
        this.db = db;
        this.blobs = new Blobs(db);
        this.planTools = new PlanToolRows(db, blobs);
        this.approvals = new ApprovalRows(db);
        this.waits = new WaitRows(db);
        this.reader = new RunReader(db, blobs, approvals);
        this.redactor = redactor;
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
        return createRun(plan, inputs, mode, parentRun, fromSeq, options, null, null, null);
    }

    /** {@link #createRun(Plan, Map, String, String, Integer, RunOptions)} of a child run when {@code callerRun} is given. */
    private String createRun(
            Plan plan,
            Map<String, JsonNode> inputs,
            String mode,
            String parentRun,
            Integer fromSeq,
            RunOptions options,
            String callerRun,
            Integer callerSeq,
            Integer callerStep) {
        String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String planJson = json(plan.document());
        String inputsJson = json(MAPPER.valueToTree(inputs));
        String optionsJson = Blobs.write(OptionsJson.write(options));
        String clockJson =
                options.clock() == null ? null : Blobs.write(options.clock().toJson());
        String linesJson =
                plan.sourceLines().isEmpty() ? null : Blobs.write(OptionsJson.writeLines(plan.sourceLines()));
        db.update(
                "INSERT INTO runs (id, plan_source, plan_digest, plan_json, inputs_json, mode, status, parent_run, from_seq, "
                        + "started_at, sessions, owner, owned_since, lease_until, stored_bytes, options_json, clock_json, "
                        + "source_lines_json, caller_run, caller_seq, caller_step) "
                        + "VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                id,
                plan.source(),
                plan.digest(),
                planJson,
                inputsJson,
                mode,
                parentRun,
                fromSeq,
                now(),
                Owner.CURRENT.toString(),
                now(),
                leaseUntil(),
                planJson.length() + inputsJson.length(),
                optionsJson,
                clockJson,
                linesJson,
                callerRun,
                callerSeq,
                callerStep);
        ACTIVE.add(id);
        return id;
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
        return createRun(plan, inputs, mode, null, null, options, callerRun, callerSeq, null);
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
        return createRun(plan, inputs, mode, null, null, options, callerRun, callerSeq, callerStep);
    }

    /**
     * A child run of {@code callerRun}'s call at {@code callerSeq} with these inputs that succeeded after the
     * caller's last committed step ({@code committedSteps} of them): the caller stopped (its process died)
     * between the child's end and its own commit, so the child's answer was never used. The oldest such
     * one not in {@code taken}; children stored by an earlier planvm (no {@code caller_step}) never are.
     */
    public synchronized Optional<String> unusedChild(
            String callerRun, int callerSeq, int committedSteps, Map<String, JsonNode> inputs, Set<String> taken) {
        String wanted = json(MAPPER.valueToTree(inputs)); // as stored: redacted, large values as blobs
        return db
                .query(
                        "SELECT id, inputs_json FROM runs WHERE caller_run = ? AND caller_seq = ? "
                                + "AND status = 'succeeded' AND caller_step > ? ORDER BY started_at, rowid",
                        rs -> Map.entry(rs.getString(1), rs.getString(2)),
                        callerRun,
                        callerSeq,
                        committedSteps)
                .stream()
                .filter(row -> !taken.contains(row.getKey()) && wanted.equals(row.getValue()))
                .map(Map.Entry::getKey)
                .findFirst();
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
        return db
                .query(
                        "SELECT caller_run, caller_seq FROM runs WHERE id = ? AND caller_run IS NOT NULL",
                        rs -> new Caller(rs.getString(1), rs.getInt(2)),
                        id)
                .stream()
                .findFirst();
    }

    /** The child runs that calls of run {@code id} started, in the order they started. */
    public synchronized List<ChildRun> children(String id) {
        List<String[]> rows = db.query(
                "SELECT id, caller_seq FROM runs WHERE caller_run = ? ORDER BY started_at, rowid",
                rs -> new String[] {rs.getString(1), rs.getString(2)},
                id);
        List<ChildRun> children = new ArrayList<>();
        for (String[] row : rows) {
            reader.summary(row[0]).ifPresent(summary -> children.add(new ChildRun(Integer.parseInt(row[1]), summary)));
        }
        return children;
    }

    /**
     * The child run of run {@code callerRun}'s call at {@code callerSeq} that was interrupted (stored
     * {@code running}) or waits (the newest such), which a resume, approval or answer of the caller continues.
     */
    synchronized Optional<String> interruptedChild(String callerRun, int callerSeq) {
        return db
                .query(
                        "SELECT id FROM runs WHERE caller_run = ? AND caller_seq = ? "
                                + "AND status IN ('running', 'waiting') "
                                + "ORDER BY started_at DESC, rowid DESC",
                        rs -> rs.getString(1),
                        callerRun,
                        callerSeq)
                .stream()
                .findFirst();
    }

    /** Stores {@code clock} as run {@code id}'s clock when it has none (a run stored by an earlier version). */
    public synchronized void keepClock(String id, RunClock clock) {
        db.update(
                "UPDATE runs SET clock_json = ? WHERE id = ? AND clock_json IS NULL", Blobs.write(clock.toJson()), id);
    }

    /**
     * Makes this process the owner of run {@code id} for a new session (a resume) and returns the
     * session number. Refused with a {@link DurableRunException} when another live process owns it
     * (unless {@code force}); a run whose owner's lease ran out, or whose owner is a dead process of
     * this host, is taken over. The claim is one conditional update: of two processes claiming at
     * once, one wins.
     */
    public synchronized int claim(String id, boolean force) {
        Map<String, Object> row = db
                .query(
                        "SELECT owner, lease_until, owned_since, status FROM runs WHERE id = ?",
                        rs -> {
                            Map<String, Object> r = new LinkedHashMap<>();
                            r.put("owner", rs.getString(1));
                            r.put("lease", rs.getObject(2) == null ? null : rs.getLong(2));
                            r.put("since", rs.getString(3));
                            r.put("status", rs.getString(4));
                            return r;
                        },
                        id)
                .stream()
                .findFirst()
                .orElseThrow(() -> DurableRunException.noSuchRun("no run '" + id + "' in " + file()));
        String owner = (String) row.get("owner");
        Long lease = (Long) row.get("lease");
        boolean alive = owner != null && live(id, owner, lease);
        if ((alive && !force) || !ACTIVE.add(id)) { // reserved in this process before the conditional update
            throw ownedElsewhere(id, owner, (String) row.get("since"));
        }
        int claimed;
        try {
            claimed = db.update(
                    "UPDATE runs SET owner = ?, owned_since = ?, lease_until = ?, status = 'running', "
                            + "sessions = sessions + 1, finished_at = NULL, error = NULL "
                            + "WHERE id = ? AND owner IS ? AND lease_until IS ? "
                            + "AND status NOT IN ('succeeded', 'completed_with_failures')",
                    Owner.CURRENT.toString(),
                    now(),
                    leaseUntil(),
                    id,
                    owner,
                    lease);
        } catch (StoreException e) { // the store cannot be written now: the run stays free to claim later
            ACTIVE.remove(id);
            throw e;
        }
        if (claimed == 0) {
            ACTIVE.remove(id);
            String now = db.query(
                            "SELECT owner, owned_since FROM runs WHERE id = ?",
                            rs -> rs.getString(1) + "\n" + rs.getString(2),
                            id)
                    .get(0);
            throw ownedElsewhere(id, now.split("\n")[0], now.split("\n")[1]);
        }
        return db.query("SELECT sessions FROM runs WHERE id = ?", rs -> rs.getInt(1), id)
                .get(0);
    }

    private static DurableRunException ownedElsewhere(String id, String owner, String since) {
        Optional<Owner> who = Owner.parse(owner);
        return new DurableRunException("run " + id + " is running in process "
                + who.map(o -> String.valueOf(o.pid())).orElse(String.valueOf(owner)) + " on host "
                + who.map(Owner::host).orElse("?") + " since " + since
                + "; use --force after it died");
    }

    /** Extends this process's lease on run {@code id} (the heartbeat calls it). */
    public synchronized void renewLease(String id) {
        db.update(
                "UPDATE runs SET lease_until = ? WHERE id = ? AND owner = ?",
                leaseUntil(),
                id,
                Owner.CURRENT.toString());
    }

    /** Keeps this process's lease on run {@code id} alive until the returned heartbeat is closed, which {@link #release}s it. */
    Heartbeat heartbeat(String id) {
        return new Heartbeat(this, id, settings.lease());
    }

    /** This process no longer works on run {@code id} (its session ended, or it was abandoned). */
    void release(String id) {
        ACTIVE.remove(id);
    }

    /**
     * Writes one committed step, durably, in one transaction, before the run goes on. A step that
     * would take the run past {@link Settings#maxRunBytes()} is not written: a {@link StoreException}.
     */
    public synchronized void commitStep(String runId, StoredStep step) {
        db.transaction(() -> {
            long[] bytes = {0};
            ObjectNode writes = blobs.externalize((ObjectNode) redactor.redact(step.writes()), runId, bytes);
            ObjectNode trace = MAPPER.createObjectNode(); // the entry without its writes, which have their own column
            redactor.redact(step.trace()).properties().forEach(field -> {
                if (field.getKey().equals("inputs") && field.getValue() instanceof ObjectNode inputs) {
                    trace.set("inputs", blobs.externalize(inputs, runId, bytes));
                } else if (!field.getKey().equals("writes")) {
                    trace.set(field.getKey(), field.getValue());
                }
            });
            String writesJson = Blobs.write(writes);
            String callsJson = json(CallsJson.write(step.calls()));
            String traceJson = Blobs.write(trace);
            bytes[0] += writesJson.length() + callsJson.length() + traceJson.length();
            if (db.update(
                            "UPDATE runs SET stored_bytes = stored_bytes + ? WHERE id = ? AND stored_bytes + ? <= ?",
                            bytes[0],
                            runId,
                            bytes[0],
                            settings.maxRunBytes())
                    == 0) {
                throw new StoreException(file() + ": run " + runId + " would store more than "
                        + mebibytes(settings.maxRunBytes()) + " with step " + step.index() + " (seq_no " + step.seqNo()
                        + "), the limit for one run (--max-store-bytes)");
            }
            db.update(
                    "INSERT INTO steps (run_id, step_index, seq_no, type, outcome, next_position, writes_json, calls_json, "
                            + "trace_json, session, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    runId,
                    step.index(),
                    step.seqNo(),
                    step.type(),
                    step.outcome(),
                    step.nextPosition(),
                    writesJson,
                    callsJson,
                    traceJson,
                    step.session(),
                    step.committedAt());
        });
    }

    /**
     * Records how a run (or one session of it) ended, and gives up its ownership. A waiting run is
     * stored {@code waiting}; an interrupted one stays {@code running} with no owner (interrupted: any
     * process may resume it at once); neither has a finished time.
     */
    public synchronized void finishRun(String runId, RunResult result) {
        RunError error = result.error();
        ObjectNode errorJson = null;
        if (error != null) {
            errorJson = MAPPER.createObjectNode();
            errorJson.put("seq_no", error.seqNo()).put("type", error.type()).put("message", error.message());
            if (error.line() != null) {
                errorJson.put("line", error.line());
            }
        }
        Instant wake = result.status() == RunStatus.WAITING ? wakeOf(error) : null;
        try {
            db.update(
                    "UPDATE runs SET status = ?, finished_at = ?, final_answer = ?, error = ?, owner = NULL, "
                            + "lease_until = NULL, wake_at = ? WHERE id = ?",
                    // an interrupted run is kept as running with no owner: any process may resume it
                    (result.interrupted() ? RunStatus.RUNNING : result.status()).label(),
                    result.completed() || result.status() == RunStatus.FAILED ? now() : null,
                    json(result.finalAnswer()),
                    errorJson == null ? null : json(errorJson),
                    wake == null ? null : wake.toString(),
                    runId);
        } finally { // unrecorded, the run is interrupted: this process no longer works on it, any may resume it
            ACTIVE.remove(runId);
        }
    }

    /**
     * Gives up this process's ownership of run {@code id} while it is still {@code running}: the run is
     * then interrupted (any process may resume it at once). A server shutting down does this for the runs
     * that did not reach a commit point in time. Returns whether this process owned it.
     */
    public synchronized boolean interrupt(String id) {
        ACTIVE.remove(id);
        return db.update(
                        "UPDATE runs SET owner = NULL, lease_until = NULL WHERE id = ? AND owner = ? AND status = 'running'",
                        id,
                        Owner.CURRENT.toString())
                > 0;
    }

    /** The wake time of a run that stopped at its own sleep ({@link SleepRequired} is its error's cause), or null. */
    private static Instant wakeOf(RunError error) {
        return error != null && error.cause() instanceof SleepRequired sleep ? sleep.wakeAt() : null;
    }

    /** A run waiting at its own {@code sleep} call for its timer, and when it is due. */
    public record Sleeping(String id, Instant wakeAt) {}

    /** Every run waiting at its own {@code sleep} call for its timer, the soonest due first. */
    public synchronized List<Sleeping> sleeping() {
        return db.query(
                "SELECT id, wake_at FROM runs WHERE status = 'waiting' AND wake_at IS NOT NULL ORDER BY wake_at",
                rs -> new Sleeping(rs.getString(1), Instant.parse(rs.getString(2))));
    }

    /** When run {@code id}, waiting at its own {@code sleep} call for its timer, is due; empty when it does not. */
    public synchronized Optional<Instant> wakeAt(String id) {
        return db
                .query(
                        "SELECT wake_at FROM runs WHERE id = ? AND status = 'waiting' AND wake_at IS NOT NULL",
                        rs -> Instant.parse(rs.getString(1)),
                        id)
                .stream()
                .findFirst();
    }

    /** Fails a run that waits (for approval, input or its timer), with {@code message}; false when it does not wait. */
    synchronized boolean cancelWaiting(String id, String message) {
        ObjectNode error = MAPPER.createObjectNode();
        error.putNull("seq_no").putNull("type");
        error.put("message", message);
        return db.update(
                        "UPDATE runs SET status = 'failed', finished_at = ?, error = ?, wake_at = NULL WHERE id = ?"
                                + " AND status = 'waiting'",
                        now(),
                        json(error),
                        id)
                > 0;
    }

    /** Records that run {@code runId}'s step {@code stepIndex} waits for a decision about this call (of {@code element}). */
    synchronized void requestApproval(
            String runId, int stepIndex, int seqNo, int element, String tool, JsonNode params) {
        approvals.request(runId, stepIndex, seqNo, element, tool, json(params));
    }

    /** The decision recorded for this call of run {@code runId}'s step {@code stepIndex} (and {@code element}), if any. */
    synchronized Optional<Approvals.Decision> decision(
            String runId, int stepIndex, int element, String tool, JsonNode params) {
        return approvals.decision(runId, stepIndex, element, tool, json(params));
    }

    /**
     * Decides each of {@code calls} of run {@code runId} (approvals it waits for), in one transaction: all of them, or
     * — when one of them no longer waits (another reviewer decided it) — none; returns whether they were decided.
     */
    synchronized boolean decide(String runId, List<StoredApproval> calls, boolean approved, String reason) {
        return approvals.decide(runId, calls, this::json, approved, reason == null ? "" : redactor.redact(reason));
    }

    /** Records a decision about one call right when a reviewer made it (a prompt on a terminal). */
    synchronized void decide(
            String runId, int stepIndex, int element, String tool, JsonNode params, Approvals.Decision decision) {
        approvals.decide(
                runId, stepIndex, element, tool, json(params), decision.approved(), redactor.redact(decision.reason()));
    }

    /** Records that run {@code runId}'s step {@code stepIndex} waits for an answer to this {@code human_input} call. */
    synchronized void requestInput(String runId, int stepIndex, int seqNo, int element, JsonNode params) {
        waits.requestInput(runId, stepIndex, seqNo, element, json(params));
    }

    /** The answer recorded for this {@code human_input} call of run {@code runId}'s step {@code stepIndex}, if any. */
    synchronized Optional<JsonNode> answerOf(String runId, int stepIndex, int element, JsonNode params) {
        return waits.answerOf(runId, stepIndex, element, json(params)).map(RunStore::parse);
    }

    /** Answers run {@code runId}'s pending input of step {@code stepIndex} and {@code element}; false when it has none there. */
    synchronized boolean answer(String runId, int stepIndex, int element, JsonNode answer) {
        return waits.answer(runId, stepIndex, element, json(answer));
    }

    /**
     * The wake time kept for this {@code sleep} call of run {@code runId}'s step {@code stepIndex} (and {@code element}:
     * each element of a map keeps its own), else {@code planned}, kept now.
     */
    synchronized Instant wakeAt(String runId, int stepIndex, int seqNo, int element, JsonNode params, Instant planned) {
        return waits.wakeAt(runId, stepIndex, seqNo, element, json(params), planned);
    }

    /** The wake times run {@code id} (the full id) keeps for its {@code sleep} calls, by step and element. */
    synchronized List<StoredWake> wakes(String id) {
        return waits.wakes(id);
    }

    /**
     * When this sleep call of run {@code runId}'s step {@code stepIndex} (and {@code element}) started (its wake time
     * was kept), if it did.
     */
    synchronized Optional<Instant> sleptSince(String runId, int stepIndex, int element) {
        return waits.sleptSince(runId, stepIndex, element);
    }

    /**
     * Commits the answer of one element of run {@code runId}'s {@code for_each} step {@code stepIndex}
     * (in its own transaction, counted in the run's stored bytes); a second commit of the same element
     * changes nothing.
     */
    synchronized void commitElement(
            String runId, int stepIndex, int seqNo, int position, Call call, JsonNode answer, int session) {
        db.transaction(() -> {
            String callJson = json(CallsJson.write(List.of(call)).get(0));
            String answerJson = json(answer);
            long bytes = callJson.length() + answerJson.length();
            if (db.update(
                            "UPDATE runs SET stored_bytes = stored_bytes + ? WHERE id = ? AND stored_bytes + ? <= ?",
                            bytes,
                            runId,
                            bytes,
                            settings.maxRunBytes())
                    == 0) {
                throw new StoreException(file() + ": run " + runId + " would store more than "
                        + mebibytes(settings.maxRunBytes()) + " with element " + position + " of seq_no " + seqNo
                        + ", the limit for one run (--max-store-bytes)");
            }
            db.update(
                    "INSERT OR IGNORE INTO element_calls (run_id, step_index, seq_no, position, call_json, answer_json, "
                            + "session, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    runId,
                    stepIndex,
                    seqNo,
                    position,
                    callJson,
                    answerJson,
                    session,
                    now());
        });
    }

    /**
     * The answers committed for elements of run {@code runId}'s {@code for_each} step {@code stepIndex}
     * (at {@code seqNo}), by position, whose committed call is the same as {@code calls} holds there.
     */
    synchronized Map<Integer, JsonNode> committedElements(String runId, int stepIndex, int seqNo, List<Call> calls) {
        Map<Integer, JsonNode> answers = new LinkedHashMap<>();
        for (String[] row : db.query(
                "SELECT position, call_json, answer_json FROM element_calls WHERE run_id = ? AND step_index = ? "
                        + "AND seq_no = ? ORDER BY position",
                rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)},
                runId,
                stepIndex,
                seqNo)) {
            int position = Integer.parseInt(row[0]);
            if (position < calls.size()
                    && row[1].equals(
                            json(CallsJson.write(List.of(calls.get(position))).get(0)))) {
                answers.put(position, parse(row[2]));
            }
        }
        return answers;
    }

    /**
     * The committed elements of every {@code for_each} step of run {@code id} (the full id), by step and position;
     * the elements that failed or have not answered have none.
     */
    public synchronized List<StoredElement> elements(String id) {
        return db.query(
                "SELECT step_index, seq_no, position, call_json, session, committed_at FROM element_calls"
                        + " WHERE run_id = ? ORDER BY step_index, position",
                rs -> new StoredElement(
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        parse(rs.getString(4)).path("tool").asText(),
                        rs.getInt(5),
                        rs.getString(6)),
                id);
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

    /**
     * Whether {@code owner} still works on run {@code id}: this process when the run is one it works on
     * now; another process when its lease has not run out and it is not a dead process of this host.
     */
    static boolean live(String id, String owner, Long leaseUntil) {
        if (Owner.CURRENT.toString().equals(owner)) {
            return ACTIVE.contains(id);
        }
        if (leaseUntil == null || leaseUntil < System.currentTimeMillis()) {
            return false;
        }
        return Owner.parse(owner).map(o -> !o.knownDead()).orElse(false);
    }

    private long leaseUntil() {
        return System.currentTimeMillis() + settings.lease().toMillis();
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
    }

    private static String mebibytes(long bytes) {
        return bytes % (1024 * 1024) == 0
                ? bytes / (1024 * 1024) + " MiB"
                : String.format(Locale.ROOT, "%,d bytes", bytes);
    }

    private String json(JsonNode node) {
        return node == null ? null : Blobs.write(redactor.redact(node));
    }

    static JsonNode parse(String json) {
        try {
            return json == null ? null : MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new StoreException("the run store holds malformed JSON: " + e.getOriginalMessage(), e);
        }
    }
}
